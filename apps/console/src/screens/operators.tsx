import {
  type CallResult,
  OPERATOR_INVITATION_HOURS,
  OPERATOR_NAME_MAX_LENGTH,
  type Operator,
} from '@soundid/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ActionDialog } from '../components/action-dialog';
import { Done, FaultMessage } from '../components/fault-message';
import { ReasonField } from '../components/reason-field';
import { RoleFields, rolesOf } from '../components/role-fields';
import { Screen, Section } from '../components/screen';
import { Table } from '../components/table';
import { post } from '../lib/api';
import { fieldText } from '../lib/form';
import { formatTime } from '../lib/format';
import { useOperator } from '../lib/session';

type Invited = CallResult<'InviteOperator'>;

/** Operators and their roles (admin, ADR 0044): invite, set roles, disable. */
export function OperatorsScreen() {
  const client = useQueryClient();
  const me = useOperator();
  const [done, setDone] = useState<string>();
  const operators = useQuery({ queryKey: ['ListOperators'], queryFn: () => post('ListOperators', {}) });
  const report = (message: string) => {
    setDone(message);
    void client.invalidateQueries({ queryKey: ['ListOperators'] });
  };
  return (
    <Screen title="Operators">
      <Invite onInvited={() => void client.invalidateQueries({ queryKey: ['ListOperators'] })} />
      <Section title="Every operator" id="operators">
        {done && <Done>{done}</Done>}
        <FaultMessage error={operators.error} />
        {operators.data && (
          <Table head={['Name', 'E-mail', 'Roles', 'Status', 'Invited', 'Last sign-in', '']}>
            {operators.data.map((operator) => (
              <tr key={operator.Id}>
                <th scope="row">
                  {operator.Name}
                  {operator.Id === me.Operator.Id && <span className="badge">you</span>}
                </th>
                <td>{operator.Email}</td>
                <td>{operator.Roles.join(', ')}</td>
                <td>{operator.Status}</td>
                <td>{formatTime(operator.CreatedAt)}</td>
                <td>{formatTime(operator.LastSignInAt)}</td>
                <td className="row-actions">
                  {operator.Status !== 'disabled' && <SetRoles operator={operator} report={report} />}
                  {operator.Status !== 'disabled' && <Disable operator={operator} report={report} />}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </Screen>
  );
}

function Invite({ onInvited }: { onInvited: () => void }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [invited, setInvited] = useState<Invited>();
  const invite = useMutation({
    mutationFn: (body: { name: string; email: string; roles: Operator['Roles']; reason: string }) =>
      post('InviteOperator', body),
    onSuccess: (result) => {
      setInvited(result);
      form.current?.reset();
      onInvited();
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    // The last invitation's link leaves the page before the next is made.
    setInvited(undefined);
    invite.mutate({
      name: fieldText(values, 'name'),
      email: fieldText(values, 'email'),
      roles: rolesOf(values),
      reason: fieldText(values, 'reason'),
    });
  };
  return (
    <Section title="Invite an operator" id="invite">
      <form ref={form} onSubmit={submit} className="stack">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} name="name" required maxLength={OPERATOR_NAME_MAX_LENGTH} autoComplete="off" />
        <label htmlFor={`${id}-email`}>E-mail</label>
        <input id={`${id}-email`} name="email" type="email" required autoComplete="off" />
        <RoleFields />
        <ReasonField />
        <FaultMessage error={invite.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={invite.isPending}>
            Invite
          </button>
        </div>
      </form>
      {invited && (
        <div className="secret" role="status">
          <p>
            {invited.Operator.Name} is invited ({invited.Operator.Roles.join(', ')}). The link went to{' '}
            {invited.Operator.Email}; it works once, for {OPERATOR_INVITATION_HOURS} hours:
          </p>
          <label htmlFor={`${id}-link`}>Invitation link</label>
          <input
            id={`${id}-link`}
            readOnly
            value={invited.InvitationUrl}
            className="mono"
            onFocus={(e) => e.target.select()}
          />
          <div className="actions">
            <button type="button" className="secondary" onClick={() => setInvited(undefined)}>
              Hide the link
            </button>
          </div>
        </div>
      )}
    </Section>
  );
}

function SetRoles({ operator, report }: { operator: Operator; report: (message: string) => void }) {
  return (
    <ActionDialog
      label="Roles"
      buttonName={`Set the roles of ${operator.Name}`}
      title={`Roles of ${operator.Name}`}
      confirm="Save roles"
      check={(_values, form) => (rolesOf(form).length > 0 ? undefined : 'Tick one role at least.')}
      run={({ reason }, form) => post('SetOperatorRoles', { id: operator.Id, roles: rolesOf(form), reason })}
      onDone={(r) => report(`${r.Operator.Name} now has the roles ${r.Operator.Roles.join(', ')}.`)}
    >
      <RoleFields checked={operator.Roles} />
    </ActionDialog>
  );
}

function Disable({ operator, report }: { operator: Operator; report: (message: string) => void }) {
  return (
    <ActionDialog
      label="Disable"
      buttonName={`Disable ${operator.Name}`}
      title={`Disable ${operator.Name}`}
      description="Their sessions and API tokens end at once; they can no longer sign in. Operators are never deleted."
      confirm="Disable"
      danger
      run={({ reason }) => post('DisableOperator', { id: operator.Id, reason })}
      onDone={(r) => report(`${r.Operator.Name} is disabled.`)}
    />
  );
}
