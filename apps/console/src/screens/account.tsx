import {
  type CallResult,
  OPERATOR_API_TOKEN_DEFAULT_DAYS,
  OPERATOR_API_TOKEN_MAX_DAYS,
  OPERATOR_IDLE_MINUTES,
  OPERATOR_NAME_MAX_LENGTH,
  OPERATOR_SESSION_HOURS,
} from '@soundid/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Done, FaultMessage } from '../components/fault-message';
import { Screen, Section } from '../components/screen';
import { Facts, Table } from '../components/table';
import { post } from '../lib/api';
import { fieldText } from '../lib/form';
import { formatTime } from '../lib/format';
import { type SignInState, useForgetSession, useOperator } from '../lib/session';

type Created = CallResult<'CreateOperatorApiToken'>;

/** My account: who I am, my console sessions, my API tokens (an admin sees everyone's). */
export function AccountScreen() {
  const me = useOperator();
  return (
    <Screen title="My account">
      <Section title="Me" id="me">
        <Facts
          rows={[
            ['Name', me.Operator.Name],
            ['E-mail', me.Operator.Email],
            ['Roles', me.Operator.Roles.join(', ')],
            ['Last sign-in', formatTime(me.Operator.LastSignInAt)],
          ]}
        />
      </Section>
      <Sessions />
      <ApiTokens />
    </Screen>
  );
}

function Sessions() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const forget = useForgetSession();
  const sessions = useQuery({ queryKey: ['ListOperatorSessions'], queryFn: () => post('ListOperatorSessions', {}) });
  const end = useMutation({
    mutationFn: ({ id }: { id: string; current: boolean }) => post('EndOperatorSession', { id }),
    onSuccess: (_result, { current }) => {
      if (current) {
        forget();
        navigate('/sign-in', { replace: true, state: { notice: 'You ended this session.' } satisfies SignInState });
        return;
      }
      void client.invalidateQueries({ queryKey: ['ListOperatorSessions'] });
    },
  });
  return (
    <Section title="My sessions" id="sessions">
      <p className="hint">
        A session ends after {OPERATOR_IDLE_MINUTES} minutes without a call, and {OPERATOR_SESSION_HOURS} hours after
        sign-in.
      </p>
      <FaultMessage error={sessions.error ?? end.error} />
      {sessions.data && (
        <Table head={['Signed in', 'Last call', 'Ends at the latest', 'From', '']}>
          {sessions.data.map((s) => (
            <tr key={s.Id}>
              <th scope="row">
                {formatTime(s.CreatedAt)}
                {s.Current && <span className="badge">this session</span>}
              </th>
              <td>{formatTime(s.LastSeenAt)}</td>
              <td>{formatTime(s.ExpiresAt)}</td>
              <td>
                {s.Address ?? '—'}
                {s.UserAgent && <div className="hint">{s.UserAgent}</div>}
              </td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  aria-label={s.Current ? 'End this session' : `End the session signed in ${formatTime(s.CreatedAt)}`}
                  disabled={end.isPending}
                  onClick={() => end.mutate({ id: s.Id, current: s.Current })}
                >
                  End
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function ApiTokens() {
  const id = useId();
  const me = useOperator();
  const client = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<Created>();
  const [revoked, setRevoked] = useState<string>();
  const tokens = useQuery({ queryKey: ['ListOperatorApiTokens'], queryFn: () => post('ListOperatorApiTokens', {}) });
  const refresh = () => client.invalidateQueries({ queryKey: ['ListOperatorApiTokens'] });
  const create = useMutation({
    mutationFn: (body: { name: string; scope: 'read' | 'write'; days: number }) => post('CreateOperatorApiToken', body),
    onSuccess: (result) => {
      setCreated(result);
      setRevoked(undefined);
      form.current?.reset();
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: ({ id }: { id: string; name: string }) => post('RevokeOperatorApiToken', { id }),
    onSuccess: (_r, { name }) => {
      setRevoked(`The token “${name}” is revoked.`);
      void refresh();
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    // The last new token leaves the page before the next is made: a token is shown once (docs/api.md, CreateOperatorApiToken).
    setCreated(undefined);
    create.mutate({
      name: fieldText(values, 'name'),
      scope: values.get('scope') === 'write' ? 'write' : 'read',
      days: Number(values.get('days')),
    });
  };

  const list = tokens.data ?? [];
  const everyone = me.Operator.Roles.includes('admin');
  return (
    <Section title={everyone ? 'API tokens (every operator’s)' : 'My API tokens'} id="tokens">
      <form ref={form} onSubmit={submit} className="filters" aria-label="Create an API token">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} name="name" required maxLength={OPERATOR_NAME_MAX_LENGTH} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-scope`}>Scope</label>
          <select id={`${id}-scope`} name="scope" defaultValue="read">
            <option value="read">read: reads only</option>
            <option value="write">write: what my roles allow</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-days`}>Days valid</label>
          <input
            id={`${id}-days`}
            name="days"
            type="number"
            min={1}
            max={OPERATOR_API_TOKEN_MAX_DAYS}
            defaultValue={OPERATOR_API_TOKEN_DEFAULT_DAYS}
            required
          />
        </div>
        <div className="field end">
          <button type="submit" className="primary" disabled={create.isPending}>
            Create token
          </button>
        </div>
      </form>
      <FaultMessage error={create.error ?? revoke.error ?? tokens.error} />
      {created && (
        <div className="panel secret" role="status">
          <p>
            The token “{created.ApiToken.Name}” ({created.ApiToken.Scope}), valid until{' '}
            {formatTime(created.ApiToken.ExpiresAt)}. Copy it now: it is not shown again.
          </p>
          <label htmlFor={`${id}-token`}>New API token</label>
          <input
            id={`${id}-token`}
            readOnly
            value={created.Token}
            className="mono"
            onFocus={(e) => e.target.select()}
          />
          <div className="actions">
            <button type="button" className="secondary" onClick={() => setCreated(undefined)}>
              I have copied it
            </button>
          </div>
        </div>
      )}
      {revoked && <Done>{revoked}</Done>}
      <Table
        head={['Name', ...(everyone ? ['Operator'] : []), 'Scope', 'Created', 'Expires', 'Last used', '']}
        empty="No API token."
      >
        {list.map((token) => (
          <tr key={token.Id}>
            <th scope="row">{token.Name}</th>
            {everyone && <td>{token.Operator}</td>}
            <td>{token.Scope}</td>
            <td>{formatTime(token.CreatedAt)}</td>
            <td>{formatTime(token.ExpiresAt)}</td>
            <td>{formatTime(token.LastUsedAt)}</td>
            <td>
              {token.RevokedAt ? (
                `Revoked ${formatTime(token.RevokedAt)}`
              ) : (
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Revoke the token ${token.Name}`}
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate({ id: token.Id, name: token.Name })}
                >
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}
