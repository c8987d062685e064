import { ISSUE_MAX_COUNT } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { meAnswer, mockApi } from '../testing/api-mock';
import { renderConsole } from '../testing/render';

const products = [
  {
    Code: 'sid-reference',
    ProductName: 'SoundIDReference',
    DisplayName: 'SoundID Reference',
    Line: 'reference',
    Kind: 'perpetual',
    InstancesMax: 3,
    TrialDays: 30,
  },
];

/** Blob URLs made for downloads, with their text (the CSV the operator gets). */
function captureDownloads() {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => `blob:${blobs.push(blob as Blob)}`);
  const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { blobs, names, revoked };
}

describe('keys and serials (admin)', () => {
  it('issues keys and downloads them as CSV: a header, one row a key', async () => {
    const downloads = captureDownloads();
    const api = mockApi({
      '/api/admin/OperatorMe': meAnswer(['admin']),
      '/api/admin/products': () => ({ Result: products }),
      '/api/admin/issue-keys': () => ({
        Result: { Keys: ['AAAAAA-BBBBBB-CCCCCC-DDDDDD', 'EEEEEE-FFFFFF-GGGGGG-HHHHHH'] },
      }),
    });
    const { user } = renderConsole('/bulk');
    const section = (await screen.findByRole('heading', { name: 'Issue activation keys' })).closest('section');
    if (!section) throw new Error('no section');
    const form = within(section);
    await user.selectOptions(form.getByLabelText('Product'), 'sid-reference');
    await user.clear(form.getByLabelText(`How many (1–${ISSUE_MAX_COUNT})`));
    await user.type(form.getByLabelText(`How many (1–${ISSUE_MAX_COUNT})`), '2');
    await user.type(form.getByLabelText('Reason or ticket'), 'dealer order 77');
    await user.click(form.getByRole('button', { name: 'Issue keys' }));

    expect(await form.findByRole('status')).toHaveTextContent('2 keys issued for sid-reference.');
    expect(api.to('/api/admin/issue-keys')[0]?.body).toEqual({
      product: 'sid-reference',
      count: 2,
      reason: 'dealer order 77',
    });
    await user.click(form.getByRole('button', { name: 'Download CSV' }));
    expect(downloads.names[0]).toMatch(/^sid-reference-keys-[\d-]+\.csv$/);
    const blob = downloads.blobs[0] as Blob;
    expect(blob.type).toBe('text/csv;charset=utf-8');
    expect(await blob.text()).toBe(
      'product,key\r\nsid-reference,AAAAAA-BBBBBB-CCCCCC-DDDDDD\r\nsid-reference,EEEEEE-FFFFFF-GGGGGG-HHHHHH\r\n',
    );
    // The Blob URL does not outlive the download.
    await waitFor(() => expect(downloads.revoked).toHaveBeenCalledWith('blob:1'));
  });

  it('imports serials from a CSV file, and lists every bad row the service names', async () => {
    const api = mockApi({
      '/api/admin/OperatorMe': meAnswer(['admin']),
      '/api/admin/products': () => ({ Result: products }),
      '/api/admin/import-serials': () => ({
        Fault: 'CsvRowsInvalid',
        text: 'Some rows of the file are not valid; nothing was imported. Correct the rows listed and upload it again.',
        variables: { Rows: JSON.stringify(['Row 3: "x!" is not a serial', 'Row 7: "" is empty']) },
      }),
    });
    const { user } = renderConsole('/bulk');
    const section = (await screen.findByRole('heading', { name: 'Import campaign serials' })).closest('section');
    if (!section) throw new Error('no section');
    const form = within(section);
    // No file: said here, and nothing is sent.
    await user.type(form.getByLabelText('Reason or ticket'), 'ADAM campaign batch 2');
    await user.click(form.getByRole('button', { name: 'Import serials' }));
    expect(form.getByRole('alert')).toHaveTextContent('Choose a CSV file with one serial a row.');
    expect(api.to('/api/admin/import-serials')).toHaveLength(0);

    const csv = 'serial\nA1B2C3D4E5\nx!\n';
    await user.upload(form.getByLabelText('CSV file'), new File([csv], 'serials.csv', { type: 'text/csv' }));
    await user.click(form.getByRole('button', { name: 'Import serials' }));

    expect(await form.findByRole('alert')).toHaveTextContent(
      'Some rows of the file are not valid; nothing was imported.',
    );
    const rows = form.getByRole('list', { name: 'Rows to correct' });
    expect(
      within(rows)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Row 3: "x!" is not a serial', 'Row 7: "" is empty']);
    expect(api.to('/api/admin/import-serials')[0]?.body).toEqual({ csv, reason: 'ADAM campaign batch 2' });
  });
});
