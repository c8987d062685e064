import { maskLicenseKey, normalizeLicenseKey } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { adminCall, getAction, issueKey, issueUpgradeCode, licenceList, ownKey } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (key: string, token: string) => t.call('/api/accounts/RegisterKey', { key }, token);
const upgrade = (key: string, upgradeCode: string, token: string) =>
  t.call('/api/accounts/UpgradeKey', { key, upgradeCode }, token);

describe('RegisterKey', () => {
  it('registers a reference key in any 6-6-6-6 form and lists it masked', async () => {
    const token = await signUpVerified(t, 'reg@example.com');
    const key = await issueKey(t, 'sid-reference');
    const typed = normalizeLicenseKey(key).toLowerCase();
    const res = await register(typed, token);
    expect(res.json()).toEqual({ Success: true, Result: { ProductCount: 1 } });

    const list = await licenceList(t, token);
    const [product] = list.ReferenceProducts.Products;
    expect(product).toMatchObject({
      DisplayName: 'SoundID Reference for Speakers & Headphones',
      ProductName: 'SoundIDReference',
      InstancesUsed: 0,
      InstancesMax: 3,
      IsManageable: true,
      Devices: [],
      Notifications: [],
    });
    expect(product.Description.split('\n')).toHaveLength(3);
    expect(product.LicenseKeys).toEqual([
      {
        FormattedKey: maskLicenseKey(normalizeLicenseKey(key)),
        IsUsedForUpgrade: false,
        ActionButtons: [
          {
            Type: 'Link',
            ActionText: 'Remove',
            Functionality: 'Remove',
            IsEnabled: true,
            ExternalRequest: {
              Type: 'BackendThenReload',
              Url: expect.stringMatching(/^\/api\/actions\/licenses\/[0-9a-f-]{36}\/remove$/),
              ServerAction: null,
            },
          },
        ],
      },
    ]);
    expect(product.LicenseKeys[0].FormattedKey).toMatch(/^\*{6}-\*{6}-\*{6}-[A-Z0-9]{6}$/);
    // The activation button carries an 'activate' server action; owning the product ends the trial offer.
    expect(product.ActionButtons[0]).toMatchObject({
      Type: 'DeepLink',
      Functionality: 'AppActivate',
      ExternalRequest: {
        Type: 'DeepLink',
        Url: 'soundid://activate?product=SoundIDReference',
        ServerAction: { Id: 'sid-reference-activate', Url: '/api/actions/products/sid-reference/activate' },
      },
    });
    expect(list.ReferenceProducts.AvailableTrials).toEqual([]);
    expect(JSON.stringify(list)).not.toContain(normalizeLicenseKey(key));
  });

  it('offers no SoundID Reference trial to a customer who holds SoundID Reference for Headphones', async () => {
    const token = await signUpVerified(t, 'hp-owner@example.com');
    expect((await licenceList(t, token)).ReferenceProducts.AvailableTrials).toHaveLength(1);
    await ownKey(t, token, 'sid-reference-hp');
    expect((await licenceList(t, token)).ReferenceProducts.AvailableTrials).toEqual([]);
  });

  it('still offers the trial to a Reference 4 owner (the older product)', async () => {
    const token = await signUpVerified(t, 'ref4-owner@example.com');
    await ownKey(t, token, 'ref4-hp');
    expect((await licenceList(t, token)).ReferenceProducts.AvailableTrials).toHaveLength(1);
  });

  it('answers every fault of the catalogue', async () => {
    const ann = await signUpVerified(t, 'ann.other@example.com');
    const bob = await signUpVerified(t, 'bob@example.com');
    const key = await ownKey(t, ann, 'sid-reference-hp');

    expect(faultOf(await register(key, ann))).toBe('KeyAlreadyExisting');
    const owned = await register(key, bob);
    expect(owned.statusCode).toBe(409);
    expect(owned.json().Fault).toMatchObject({
      ExceptionName: 'KeyOwnedByAnotherUser',
      ExceptionVariables: [{ Key: 'OtherUserEmail', Value: 'a***@e***.com' }],
    });
    const unknown = await register('AAAAAA-BBBBBB-CCCCCC-DDDDDD', bob);
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'KeyNotFound']);
    const bundle = await issueKey(t, 'sid-reference-bundle');
    expect(faultOf(await register(bundle, bob))).toBe('KeyBundleNotAllowed');
    const malformed = await register('UPG-12345678', bob);
    expect([malformed.statusCode, faultOf(malformed)]).toEqual([400, 'RequestInvalid']);
    expect(faultOf(await t.call('/api/accounts/RegisterKey', { key }))).toBe('SecurityAuthTokenNotPassed');
  });

  it('registers voice AI keys: the perpetual licence and expansion packs', async () => {
    const token = await signUpVerified(t, 'voice@example.com');
    const perpetual = await issueKey(t, 'voice-ai');
    expect((await register(perpetual, token)).json().Result).toEqual({
      ProductCount: 1,
      VoiceAi: { AssetCount: 0, ActivationUrl: 'soundid://activate?product=SoundIDVoiceAI' },
    });
    const pack = await issueKey(t, 'voice-pack-choir');
    expect((await register(pack, token)).json().Result).toEqual({ ProductCount: 0, VoiceAi: { AssetCount: 1 } });

    const voice = (await licenceList(t, token)).VoiceAIProducts;
    expect(voice.Title).toBe('SoundID VoiceAI');
    expect(voice.LicenseStatus).toMatchObject({
      StatusWarning: null,
      TokenStatus: 'Perpetual mode: unlimited processing.',
      IsManageable: true,
      InstancesUsed: 0,
      Devices: [],
      OfflineLicenseKey: maskLicenseKey(normalizeLicenseKey(perpetual)),
    });
    const functionalities = voice.LicenseStatus.ActionButtons.map((b: { Functionality: string }) => b.Functionality);
    expect(functionalities).toEqual(['AppActivate', 'Download', 'RemovePerpetual']);
    expect(voice.LicenseStatus.ActionButtons[0].ExternalRequest.ServerAction.Id).toContain('activate');
    const choir = voice.AssetPacks.find((p: { Title: string }) => p.Title === 'Choir & Harmonies Pack');
    expect(choir).toMatchObject({
      LicenseKey: maskLicenseKey(normalizeLicenseKey(pack)),
      RemoveLicenseAction: {
        Url: expect.stringMatching(/^\/api\/actions\/voice-ai\/asset-packs\/[0-9a-f-]{36}\/remove$/),
      },
    });
    const pop = voice.AssetPacks.find((p: { Title: string }) => p.Title === 'Pop Vocals Pack');
    expect(pop).toMatchObject({
      LicenseKey: null,
      RemoveLicenseAction: null,
      StoreUrl: expect.stringContaining('https://'),
    });
    expect(voice.Notifications).toEqual([{ Message: 'Perpetual mode is active.', Importance: 'Low', Action: null }]);
  });
});

describe('UpgradeKey and KeyUpgradePaths', () => {
  it('upgrades by the masked FormattedKey, marks IsUsedForUpgrade and adds the target licence', async () => {
    const token = await signUpVerified(t, 'upgrade@example.com');
    await ownKey(t, token, 'ref4-hp');
    const formatted = (await licenceList(t, token)).ReferenceProducts.Products[0].LicenseKeys[0].FormattedKey;

    const paths = await t.call('/api/accounts/KeyUpgradePaths', { key: formatted }, token);
    expect(paths.json().Result.LinksToStore).toHaveLength(2);
    expect(paths.json().Result.LinksToStore[0]).toEqual({
      Name: 'SoundID Reference for Headphones',
      Description: expect.any(String),
      Link: expect.stringMatching(/^https:\/\//),
      ButtonText: expect.any(String),
    });

    const wrongTarget = await issueUpgradeCode(t, 'sid-reference', ['ref4-studio']);
    const incompatible = await upgrade(formatted, wrongTarget, token);
    expect([incompatible.statusCode, faultOf(incompatible)]).toEqual([409, 'UpgradeCodeIncompatibility']);
    expect(faultOf(await upgrade(formatted, 'UPG-NOSUCHCODE1', token))).toBe('UpgradeCodeNotFound');

    const code = await issueUpgradeCode(t, 'sid-reference-hp', ['ref4-hp'], 'seven');
    const res = await upgrade(formatted, code.toLowerCase(), token);
    expect(res.json()).toEqual({
      Success: true,
      Result: {
        FormattedKey: expect.stringMatching(/^\*{6}-\*{6}-\*{6}-[A-Z0-9]{6}$/),
        ProductName: 'SoundIDReferenceHeadphones',
        DisplayName: 'SoundID Reference for Headphones',
      },
    });

    const products = (await licenceList(t, token)).ReferenceProducts.Products;
    expect(products.map((p: { ProductName: string }) => p.ProductName)).toEqual([
      'SoundIDReferenceHeadphones',
      'Reference4Headphone',
    ]);
    const old = products[1];
    expect(old.LicenseKeys[0].IsUsedForUpgrade).toBe(true);
    // The traded-in key keeps its own seats; it only cannot be upgraded again.
    expect(old.InstancesMax).toBe(2);
    expect(old.ActionButtons.map((b: { Functionality: string }) => b.Functionality)).not.toContain('Upgrade');
    expect(old.Notifications[0]).toMatchObject({ Importance: 'Low' });
    expect(products[0].ActionButtons.map((b: { Functionality: string }) => b.Functionality)).toContain('Upgrade');

    const again = await issueUpgradeCode(t, 'sid-reference', ['ref4-hp']);
    expect(faultOf(await upgrade(formatted, again, token))).toBe('KeyAlreadyUpgraded');
    expect((await t.call('/api/accounts/KeyUpgradePaths', { key: formatted }, token)).json().Result).toEqual({
      LinksToStore: [],
    });
  });

  it('uses a code once, and never on another customer’s key', async () => {
    const ann = await signUpVerified(t, 'ann.upg@example.com');
    const bob = await signUpVerified(t, 'bob.upg@example.com');
    const first = await ownKey(t, ann, 'ref4-studio');
    const second = await ownKey(t, ann, 'ref4-studio');
    const bobs = await ownKey(t, bob, 'ref4-studio');
    const code = await issueUpgradeCode(t, 'sid-reference', ['ref4-studio'], 'grace');
    expect(code).toMatch(/GRACE$/);

    expect(faultOf(await upgrade(bobs.replace(/-/g, ''), code, ann))).toBe('KeyNotFound');
    expect(faultOf(await t.call('/api/accounts/KeyUpgradePaths', { key: bobs }, ann))).toBe('KeyNotFound');
    expect((await upgrade(first, code, ann)).statusCode).toBe(200);
    const used = await upgrade(second, code, ann);
    expect([used.statusCode, faultOf(used)]).toEqual([409, 'UpgradeKeyAlreadyUsed']);
    expect(faultOf(await upgrade(bobs, code, bob))).toBe('UpgradeKeyAlreadyUsed');
  });

  it('takes only UPG- codes for voice AI keys, and validates the code shape', async () => {
    const token = await signUpVerified(t, 'voice.upg@example.com');
    const key = await ownKey(t, token, 'voice-ai');
    const res = await upgrade(key, 'ABC1234', token);
    expect([res.statusCode, faultOf(res)]).toEqual([400, 'RequestInvalid']);
    expect(res.json().Fault.ExceptionUserText).toBe('Incorrect license key or upgrade code');
    expect(faultOf(await upgrade(key, 'not a code', token))).toBe('RequestInvalid');
    expect(faultOf(await upgrade(key, 'UPG-VOICENOTFOUND1', token))).toBe('UpgradeCodeNotFound');
    const bad = await adminCall(t, '/api/admin/issue-upgrade-codes', {
      product: 'voice-ai',
      from: ['voice-ai'],
      count: 1,
      shape: 'seven',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('removing keys and deleting accounts release keys', () => {
  it('removes a licence through its action URL; the key can then be registered elsewhere', async () => {
    const ann = await signUpVerified(t, 'ann.rm@example.com');
    const bob = await signUpVerified(t, 'bob.rm@example.com');
    const key = await ownKey(t, ann, 'sid-reference');
    const url = (await licenceList(t, ann)).ReferenceProducts.Products[0].LicenseKeys[0].ActionButtons[0]
      .ExternalRequest.Url;

    const stolen = await getAction(t, url, bob);
    expect([stolen.statusCode, faultOf(stolen)]).toEqual([404, 'KeyNotFound']);
    const wrongKind = await getAction(t, url.replace('/licenses/', '/voice-ai/perpetual/'), ann);
    expect(faultOf(wrongKind)).toBe('KeyNotFound');

    const removed = await getAction(t, url, ann);
    expect(removed.json()).toEqual({ Success: true, Result: { Message: 'License removed successfully.' } });
    expect((await licenceList(t, ann)).ReferenceProducts.Products).toEqual([]);
    expect(faultOf(await getAction(t, url, ann))).toBe('KeyNotFound');
    expect((await register(key, bob)).statusCode).toBe(200);
  });

  it('removes the perpetual voice licence and an expansion pack', async () => {
    const token = await signUpVerified(t, 'voice.rm@example.com');
    await ownKey(t, token, 'voice-ai');
    await ownKey(t, token, 'voice-pack-pop');
    const voice = (await licenceList(t, token)).VoiceAIProducts;
    const removePerpetual = voice.LicenseStatus.ActionButtons.find(
      (b: { Functionality: string }) => b.Functionality === 'RemovePerpetual',
    ).ExternalRequest.Url;
    const removePack = voice.AssetPacks.find((p: { LicenseKey: string | null }) => p.LicenseKey).RemoveLicenseAction
      .Url;

    expect((await getAction(t, removePack, token)).json().Result.Message).toBe(
      'Your activation key has been removed successfully!',
    );
    expect((await getAction(t, removePerpetual, token)).json().Result.Message).toBe('License removed successfully.');
    const after = (await licenceList(t, token)).VoiceAIProducts;
    expect(after.LicenseStatus.OfflineLicenseKey).toBeNull();
    expect(after.AssetPacks.every((p: { LicenseKey: string | null }) => p.LicenseKey === null)).toBe(true);
    // No perpetual licence and no trial used yet: the trial is offered.
    expect(after.LicenseStatus.ActionButtons[0].ExternalRequest.ServerAction.Id).toContain('starttrial');
  });

  it('deleting a customer releases their keys', async () => {
    const email = 'leaving@example.com';
    const token = await signUpVerified(t, email);
    const key = await ownKey(t, token, 'sid-reference');
    await t.call('/api/accounts/DeleteAccount', {}, token);
    const link = await t.lastLinkToken(email);
    expect((await t.call('/api/accounts/DeleteAccountConfirm', { token: link })).statusCode).toBe(200);
    const next = await signUpVerified(t, 'next.owner@example.com');
    expect((await register(key, next)).json().Result).toEqual({ ProductCount: 1 });
  });
});

describe('operator API', () => {
  it('lists products, issues keys, codes and serials, and refuses without the operator token', async () => {
    const products = (await adminCall(t, '/api/admin/products')).json().Result;
    expect(products.find((p: { Code: string }) => p.Code === 'sid-reference')).toMatchObject({
      ProductName: 'SoundIDReference',
      InstancesMax: 3,
      TrialDays: 21,
    });
    const keys = (await adminCall(t, '/api/admin/issue-keys', { product: 'ref4-studio', count: 3 })).json().Result.Keys;
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^[A-Z0-9]{6}(-[A-Z0-9]{6}){3}$/);
    expect(faultOf(await adminCall(t, '/api/admin/issue-keys', { product: 'nope', count: 1 }))).toBe('ProductNotFound');
    const serials = await adminCall(t, '/api/admin/add-serials', {
      serials: ['ADAM-A7V-000123', 'adam-a7v-000123', 'ADAM-T5V-000777'],
    });
    expect(serials.json().Result).toEqual({ Added: 2, AlreadyPresent: 0 });
    const again = await adminCall(t, '/api/admin/add-serials', { serials: ['ADAM-A7V-000123'] });
    expect(again.json().Result).toEqual({ Added: 0, AlreadyPresent: 1 });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/products' });
    expect([anonymous.statusCode, faultOf(anonymous)]).toEqual([401, 'AdminTokenInvalid']);
  });
});
