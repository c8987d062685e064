import { describe, expect, it } from 'vitest';
import { releaseUploadFieldsSchema } from './calls/releases';
import {
  compareReleaseVersions,
  downloadCenterPath,
  downloadCenterPathForDeeplink,
  fileExtensionOf,
  formatFileSize,
  isAllowedReleaseFile,
  isReleaseVersion,
} from './releases';

describe('release versions (semver precedence, docs/decisions/0046-release-storage.md)', () => {
  it('orders versions by semver precedence, not by text', () => {
    const published = [
      '1.10.0',
      '1.2.0',
      '1.2.0-rc.1',
      '1.2.0-beta.11',
      '1.2.0-beta.2',
      '1.2.0-alpha',
      '10.0.0',
      '2.0.0',
    ];
    expect([...published].sort(compareReleaseVersions)).toEqual([
      '1.2.0-alpha',
      '1.2.0-beta.2',
      '1.2.0-beta.11',
      '1.2.0-rc.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
      '10.0.0',
    ]);
  });

  it("follows semver.org's pre-release example and ignores build metadata", () => {
    const example = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 1; i < example.length; i++) {
      expect(compareReleaseVersions(example[i - 1] as string, example[i] as string), example[i]).toBeLessThan(0);
    }
    expect(compareReleaseVersions('1.0.0+build.7', '1.0.0+build.8')).toBe(0);
    // Numbers beyond JavaScript's safe integers still compare exactly.
    expect(compareReleaseVersions('99999999999999999999.0.0', '99999999999999999998.0.0')).toBeGreaterThan(0);
  });

  it('accepts semantic versions only', () => {
    for (const good of ['0.0.1', '5.2.0', '6.0.0-beta.1', '1.0.0+20260101', '1.0.0-x-y.z+b.1']) {
      expect(isReleaseVersion(good), good).toBe(true);
    }
    for (const bad of [
      '5.2',
      '5.2.0.1234',
      'v5.2.0',
      '01.2.3',
      '1.2.3-',
      '1.2.3-01',
      '',
      ' 1.2.3',
      `1.2.3-${'a'.repeat(70)}`,
    ]) {
      expect(isReleaseVersion(bad), bad).toBe(false);
    }
    expect(() => compareReleaseVersions('5.2', '5.2.0')).toThrow();
  });
});

describe('installer kinds per platform', () => {
  it('takes .dmg, .pkg, .zip for macOS and .exe, .msi, .zip for Windows, whatever the case', () => {
    expect(isAllowedReleaseFile('macos', 'SoundID-5.2.0.DMG')).toBe(true);
    expect(isAllowedReleaseFile('macos', 'SoundID.pkg')).toBe(true);
    expect(isAllowedReleaseFile('macos', 'SoundID.exe')).toBe(false);
    expect(isAllowedReleaseFile('windows', 'SoundID.msi')).toBe(true);
    expect(isAllowedReleaseFile('windows', 'SoundID.zip')).toBe(true);
    expect(isAllowedReleaseFile('windows', 'SoundID.dmg')).toBe(false);
    expect(isAllowedReleaseFile('windows', 'exe')).toBe(false);
    expect(fileExtensionOf('.exe')).toBe('');
    expect(fileExtensionOf('a.tar.gz')).toBe('.gz');
  });
});

describe('the upload fields', () => {
  it('refuses an unknown field, a bad platform or version, empty notes', () => {
    const good = { product: 'sid-reference', platform: 'macos', version: '5.2.0', notes: 'Fixes.' };
    expect(releaseUploadFieldsSchema.safeParse(good).success).toBe(true);
    expect(releaseUploadFieldsSchema.safeParse({ ...good, extra: 1 }).success).toBe(false);
    expect(releaseUploadFieldsSchema.safeParse({ ...good, platform: 'linux' }).success).toBe(false);
    expect(releaseUploadFieldsSchema.safeParse({ ...good, version: '5.2' }).success).toBe(false);
    expect(releaseUploadFieldsSchema.safeParse({ ...good, notes: '  ' }).success).toBe(false);
    expect(releaseUploadFieldsSchema.safeParse({ ...good, product: '../etc' }).success).toBe(false);
  });
});

describe('the download center', () => {
  it("links a product's section by its code", () => {
    expect(downloadCenterPath()).toBe('/download-center');
    expect(downloadCenterPath('voice-ai')).toBe('/download-center#voice-ai');
    expect(downloadCenterPathForDeeplink('soundid://activate?product=SoundIDVoiceAI')).toBe(
      '/download-center#SoundIDVoiceAI',
    );
    expect(downloadCenterPathForDeeplink('soundid://login?token=abc')).toBe('/download-center');
    expect(downloadCenterPathForDeeplink('soundid://activate?product=%3Cscript%3E')).toBe('/download-center');
    expect(downloadCenterPathForDeeplink(null)).toBe('/download-center');
  });

  it('shows sizes in decimal units', () => {
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(4_200_000)).toBe('4.2 MB');
    expect(formatFileSize(1_500_000_000)).toBe('1.5 GB');
  });
});
