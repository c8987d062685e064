import { OPERATOR_API_TOKEN_DEFAULT_DAYS } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer, mockApi } from '../testing/api-mock';
import { renderConsole } from '../testing/render';

describe('my account: API tokens', () => {
  it('shows a new token once: the form is emptied, the token hidden when dismissed or when the next is made', async () => {
    let created = 0;
    const api = mockApi({
      '/api/admin/OperatorMe': meAnswer(['support']),
      '/api/admin/ListOperatorSessions': () => ({ Result: [] }),
      '/api/admin/ListOperatorApiTokens': () => ({ Result: [] }),
      '/api/admin/CreateOperatorApiToken': (call) => {
        created += 1;
        if (created === 3) return { Fault: 'OperatorForbidden', text: 'Your role does not allow this.' };
        const { name, scope } = call.body as { name: string; scope: 'read' | 'write' };
        return {
          Result: {
            Token: `sid_op_secret_${created}`,
            ApiToken: {
              Id: `t${created}`,
              Operator: 'olga@operators.example.com',
              Name: name,
              Scope: scope,
              CreatedAt: '2026-01-01T00:00:00.000Z',
              ExpiresAt: '2026-01-08T00:00:00.000Z',
              LastUsedAt: null,
              RevokedAt: null,
            },
          },
        };
      },
    });
    const { user } = renderConsole('/account');
    const form = within(await screen.findByRole('form', { name: 'Create an API token' }));
    const section = within(screen.getByRole('region', { name: 'My API tokens' }));
    const create = async (name: string) => {
      // user-event keeps its own record of what was typed, which form.reset() does not clear: clear first.
      await user.clear(form.getByLabelText('Name'));
      await user.type(form.getByLabelText('Name'), name);
      await user.selectOptions(form.getByLabelText('Scope'), 'write');
      await user.clear(form.getByLabelText('Days valid'));
      await user.type(form.getByLabelText('Days valid'), '7');
      await user.click(form.getByRole('button', { name: 'Create token' }));
    };

    await create('nightly export');
    expect(await section.findByLabelText('New API token')).toHaveValue('sid_op_secret_1');
    expect(api.to('/api/admin/CreateOperatorApiToken')[0]?.body).toEqual({
      name: 'nightly export',
      scope: 'write',
      days: 7,
    });
    // The form is back to its defaults for the next token.
    expect(form.getByLabelText('Name')).toHaveValue('');
    expect(form.getByLabelText('Scope')).toHaveValue('read');
    expect(form.getByLabelText('Days valid')).toHaveValue(OPERATOR_API_TOKEN_DEFAULT_DAYS);

    await user.click(section.getByRole('button', { name: 'I have copied it' }));
    expect(section.queryByLabelText('New API token')).toBeNull();
    expect(screen.queryByDisplayValue('sid_op_secret_1')).toBeNull();

    await create('second');
    expect(await section.findByLabelText('New API token')).toHaveValue('sid_op_secret_2');
    expect(api.to('/api/admin/CreateOperatorApiToken')[1]?.body).toEqual({ name: 'second', scope: 'write', days: 7 });
    // A refused creation leaves no earlier token on the page.
    await create('third');
    expect(await section.findByRole('alert')).toHaveTextContent('Your role does not allow this.');
    await waitFor(() => expect(section.queryByLabelText('New API token')).toBeNull());
    expect(screen.queryByDisplayValue('sid_op_secret_2')).toBeNull();
  });
});
