import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { invokeAction, isActionUrl } from './invoke-action';

describe('action URLs', () => {
  it("are only this origin's /api/actions/ paths", () => {
    expect(isActionUrl('/api/actions/devices/d1/deactivate')).toBe(true);
    expect(isActionUrl(`${window.location.origin}/api/actions/licenses/k1/remove`)).toBe(true);
    expect(isActionUrl('https://evil.example/api/actions/devices/d1/deactivate')).toBe(false);
    expect(isActionUrl('//evil.example/api/actions/x')).toBe(false);
    expect(isActionUrl('/api/accounts/DeleteAccount')).toBe(false);
    expect(isActionUrl('javascript:alert(1)')).toBe(false);
  });

  it('never sends a request elsewhere', async () => {
    const api = mockApi({});
    await expect(invokeAction({ url: 'https://evil.example/api/actions/x' })).rejects.toThrow(/Not an action URL/);
    expect(api.calls).toHaveLength(0);
  });
});
