import type { OperatorRole } from '@soundid/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer, mockApi } from '../testing/api-mock';
import { renderConsole } from '../testing/render';

const navigationOf = async (roles: OperatorRole[]) => {
  mockApi({
    '/api/admin/OperatorMe': meAnswer(roles),
    '/api/admin/SearchAudit': () => ({ Result: { Entries: [], More: false } }),
  });
  const rendered = renderConsole('/audit');
  const nav = await screen.findByRole('navigation', { name: 'Console' });
  const links = within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
  rendered.unmount();
  return links;
};

describe('the navigation follows the roles (operatorCallRoles)', () => {
  it.each([
    [['support'], ['Customers', 'Audit', 'Releases', 'My account']],
    [['finance'], ['Customers', 'Payments', 'Audit', 'Releases', 'My account']],
    [['admin'], ['Audit', 'Operators', 'Keys and serials', 'Releases', 'My account']],
    [
      ['support', 'admin'],
      ['Customers', 'Audit', 'Operators', 'Keys and serials', 'Releases', 'My account'],
    ],
  ] as [OperatorRole[], string[]][])('%j', async (roles, expected) => {
    expect(await navigationOf(roles)).toEqual(expected);
  });

  it('the audit screen has the verify button for an admin only', async () => {
    const support = mockApi({
      '/api/admin/OperatorMe': meAnswer(['support', 'finance']),
      '/api/admin/SearchAudit': () => ({ Result: { Entries: [], More: false } }),
    });
    const rendered = renderConsole('/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit' });
    expect(screen.queryByRole('button', { name: 'Verify the audit trail' })).toBeNull();
    expect(support.to('/api/admin/VerifyAudit')).toHaveLength(0);
    rendered.unmount();

    mockApi({
      '/api/admin/OperatorMe': meAnswer(['admin']),
      '/api/admin/SearchAudit': () => ({ Result: { Entries: [], More: false } }),
      '/api/admin/VerifyAudit': () => ({
        Result: { Entries: 12, Intact: false, FirstBroken: { Seq: 7, Problem: 'its hash does not follow' } },
      }),
    });
    const { user } = renderConsole('/audit');
    await user.click(await screen.findByRole('button', { name: 'Verify the audit trail' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The audit trail is broken at entry #7: its hash does not follow.',
    );
  });
});
