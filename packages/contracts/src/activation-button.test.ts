import { describe, expect, it } from 'vitest';
import { activationTypeOf, findActivationButton } from './activation-button';
import type { ActionButton } from './calls/licences';
import { downloadCenterPath } from './releases';

const deeplinkButton = (id: string | null, overrides: Partial<ActionButton> = {}): ActionButton => ({
  Type: 'DeepLink',
  ActionText: `Open ${id}`,
  Functionality: 'AppActivate',
  IsEnabled: true,
  ExternalRequest: {
    Type: 'DeepLink',
    Url: `soundid://${id}`,
    ServerAction: id === null ? null : { Id: id, Url: `/api/actions/${id}` },
  },
  ...overrides,
});

describe('activation button rule', () => {
  it('infers the activation type from the server action id', () => {
    expect(activationTypeOf('voice-ai-starttrial')).toBe('trial');
    expect(activationTypeOf('voice-ai-StartTrial')).toBe('trial');
    expect(activationTypeOf('sid-reference-activate')).toBe('normal');
    expect(activationTypeOf('voice-ai-extend')).toBeUndefined();
  });

  it('takes only the first enabled DeepLink button with a recognised server action', () => {
    const link: ActionButton = {
      Type: 'Link',
      ActionText: 'Download',
      Functionality: 'Download',
      IsEnabled: true,
      // As the licence list sends it: the download center's section of the product (ADR 0046).
      ExternalRequest: { Type: 'Link', Url: downloadCenterPath('voice-ai'), ServerAction: null },
    };
    const choice = findActivationButton([
      link,
      deeplinkButton('a-activate', { IsEnabled: false }),
      deeplinkButton(null),
      deeplinkButton('a-extend'),
      deeplinkButton('a-starttrial'),
      deeplinkButton('b-activate'),
    ]);
    expect(choice?.type).toBe('trial');
    expect(choice?.deeplink).toBe('soundid://a-starttrial');
    expect(choice?.serverAction.Url).toBe('/api/actions/a-starttrial');
    expect(findActivationButton([link, deeplinkButton('x-extend')])).toBeUndefined();
    expect(findActivationButton([{ ...deeplinkButton('a-activate'), Type: 'Primary' }])).toBeUndefined();
  });
});
