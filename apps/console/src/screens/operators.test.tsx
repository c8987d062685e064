import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer, mockApi, operator } from '../testing/api-mock';
import { renderConsole } from '../testing/render';

describe('operators (admin)', () => {
  it('shows an invitation link until it is hidden, and never beside the next invitation', async () => {
    let invitations = 0;
    const api = mockApi({
      '/api/admin/OperatorMe': meAnswer(['admin']),
      '/api/admin/ListOperators': () => ({ Result: [] }),
      '/api/admin/InviteOperator': () => {
        invitations += 1;
        if (invitations === 3) return { Fault: 'OperatorAlreadyExists', text: 'An operator with this email exists.' };
        return {
          Result: {
            Operator: { ...operator(['support'], 'Sam Support'), Status: 'invited' },
            InvitationUrl: `https://id.example.com/console/invitation/secret-${invitations}`,
          },
        };
      },
    });
    const { user } = renderConsole('/operators');
    const section = (await screen.findByRole('heading', { name: 'Invite an operator' })).closest('section');
    if (!section) throw new Error('no section');
    const form = within(section);
    // user-event keeps its own record of what was typed, which form.reset() does not clear: clear first.
    const fill = async (label: string, text: string) => {
      await user.clear(form.getByLabelText(label));
      await user.type(form.getByLabelText(label), text);
    };
    const invite = async () => {
      await fill('Name', 'Sam Support');
      await fill('E-mail', 'sam@operators.example.com');
      await user.click(form.getByRole('checkbox', { name: /^support/ }));
      await fill('Reason or ticket', 'new hire, ticket 12');
      await user.click(form.getByRole('button', { name: 'Invite' }));
    };

    await invite();
    expect(await form.findByLabelText('Invitation link')).toHaveValue(
      'https://id.example.com/console/invitation/secret-1',
    );
    expect(api.to('/api/admin/InviteOperator')[0]?.body).toEqual({
      name: 'Sam Support',
      email: 'sam@operators.example.com',
      roles: ['support'],
      reason: 'new hire, ticket 12',
    });
    // The form is empty again for the next invitation.
    expect(form.getByLabelText('Name')).toHaveValue('');
    expect(form.getByRole('checkbox', { name: /^support/ })).not.toBeChecked();

    await user.click(form.getByRole('button', { name: 'Hide the link' }));
    expect(form.queryByLabelText('Invitation link')).toBeNull();
    expect(section).not.toHaveTextContent('secret-1');

    await invite();
    expect(await form.findByLabelText('Invitation link')).toHaveValue(
      'https://id.example.com/console/invitation/secret-2',
    );
    expect(api.to('/api/admin/InviteOperator')[1]?.body).toEqual(api.to('/api/admin/InviteOperator')[0]?.body);
    // A refused invitation leaves no earlier link on the page.
    await invite();
    expect(await form.findByRole('alert')).toHaveTextContent('An operator with this email exists.');
    await waitFor(() => expect(form.queryByLabelText('Invitation link')).toBeNull());
    expect(section).not.toHaveTextContent('secret-2');
  });
});
