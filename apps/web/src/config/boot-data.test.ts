import { describe, expect, it } from 'vitest';
import { BOOT_DATA_ID, bootDataElement, readBootData } from './boot-data';
import { FALLBACK_CONFIG } from './public-config';

const pageWith = (body: string) => new DOMParser().parseFromString(`<head>${body}</head>`, 'text/html');

describe('boot data', () => {
  it('reads back what the service wrote', () => {
    const boot = { config: FALLBACK_CONFIG, signedOut: true };
    expect(readBootData(pageWith(bootDataElement(boot)))).toEqual(boot);
  });

  it('is absent from a page the service did not write, and ignored when malformed', () => {
    expect(readBootData(pageWith(''))).toBeUndefined();
    for (const text of ['{', '{"config":{}}', '{"signedOut":true}', '{"config":null,"signedOut":false}', '[]']) {
      const page = pageWith(`<script type="application/json" id="${BOOT_DATA_ID}">${text}</script>`);
      expect(readBootData(page), text).toBeUndefined();
    }
  });
});
