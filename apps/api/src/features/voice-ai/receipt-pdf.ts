import PDFDocument from 'pdfkit';
import type { Receipt } from './receipts';

/** The receipt's words, read back by its tests. */
export const RECEIPT_TEXT = {
  title: 'Receipt',
  invoiceNumber: 'Invoice number',
  paymentDate: 'Payment date',
  paidWith: 'Paid by card',
  seller: 'Seller',
  buyer: 'Buyer and billing address',
  noAddress: 'No billing address on the account',
  taxId: 'VAT ID',
  item: 'Item',
  quantity: 'Quantity',
  unitPrice: 'Unit price',
  amount: 'Amount',
  tax: 'Tax',
  /** What the checkout records: the amount paid is the price offered, nothing added on top (ADR 0058). */
  taxNote: 'none added: the amount paid is the price as offered, which includes any tax due',
  total: 'Total paid',
  refunded: 'Refunded',
  net: 'Net paid after refunds',
} as const;

/** An amount in cents as the receipt writes it: `9.99 USD`. */
export function receiptAmount(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/** A date as the receipt writes it, in UTC: `2026-11-27 00:12 UTC`. */
export function receiptDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The receipt as a PDF (pdfkit, ADR 0058). Helvetica, one of the PDF standard fonts, so every
 * reader shows it and its text can be extracted; characters outside its encoding (Windows-1252)
 * lose their accents or are written as `?`. The same receipt renders to the same bytes: the document's dates are the
 * payment date and its file id is derived from them.
 */
export function renderReceiptPdf(receipt: Receipt): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `${RECEIPT_TEXT.title} ${receipt.invoiceTag}`,
      Author: latin1(receipt.seller.name),
      Subject: RECEIPT_TEXT.title,
      CreationDate: receipt.paidAt,
      ModDate: receipt.paidAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const money = (cents: number) => receiptAmount(cents, receipt.currency);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font('Helvetica-Bold').fontSize(22).text(RECEIPT_TEXT.title);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`${RECEIPT_TEXT.invoiceNumber}: ${receipt.invoiceTag}`);
  doc.text(`${RECEIPT_TEXT.paymentDate}: ${receiptDate(receipt.paidAt)}`);
  doc.text(RECEIPT_TEXT.paidWith);

  const partiesTop = doc.moveDown(1.5).y;
  const column = (x: number, heading: string, lines: string[]) => {
    doc.font('Helvetica-Bold').text(heading, x, partiesTop, { width: width / 2 - 12 });
    doc.font('Helvetica');
    for (const line of lines) doc.text(latin1(line), { width: width / 2 - 12 });
    return doc.y;
  };
  const sellerLines = [
    receipt.seller.name,
    ...receipt.seller.address,
    ...(receipt.seller.taxId ? [`${RECEIPT_TEXT.taxId}: ${receipt.seller.taxId}`] : []),
  ];
  const buyerLines = [
    receipt.buyer.email,
    ...(receipt.buyer.address.length > 0 ? receipt.buyer.address : [RECEIPT_TEXT.noAddress]),
  ];
  const sellerBottom = column(left, RECEIPT_TEXT.seller, sellerLines);
  const buyerBottom = column(left + width / 2, RECEIPT_TEXT.buyer, buyerLines);

  // The item table: item, quantity, unit price, amount.
  const columns = [left, left + width * 0.55, left + width * 0.7, left + width * 0.85];
  const row = (y: number, cells: string[], font: string) => {
    doc.font(font);
    cells.forEach((cell, i) => {
      const x = columns[i] ?? left;
      const next = columns[i + 1] ?? left + width;
      doc.text(cell, x, y, { width: next - x - 6, align: i === 0 ? 'left' : 'right' });
    });
    return doc.y;
  };
  let y = Math.max(sellerBottom, buyerBottom) + 28;
  y = row(y, [RECEIPT_TEXT.item, RECEIPT_TEXT.quantity, RECEIPT_TEXT.unitPrice, RECEIPT_TEXT.amount], 'Helvetica-Bold');
  doc
    .moveTo(left, y + 2)
    .lineTo(left + width, y + 2)
    .stroke();
  const unit = Math.round(receipt.amountInCents / receipt.quantity);
  y = row(
    y + 8,
    [latin1(receipt.item), String(receipt.quantity), money(unit), money(receipt.amountInCents)],
    'Helvetica',
  );

  const total = (label: string, value: string, font = 'Helvetica') => {
    doc.font(font).text(`${label}: ${value}`, left, y + 6, { width, align: 'right' });
    y = doc.y;
  };
  y += 12;
  total(RECEIPT_TEXT.tax, `${money(0)} (${RECEIPT_TEXT.taxNote})`);
  total(RECEIPT_TEXT.total, money(receipt.amountInCents), 'Helvetica-Bold');
  if (receipt.refundedInCents > 0) {
    const when = receipt.refundedAt ? ` (${receiptDate(receipt.refundedAt)})` : '';
    total(RECEIPT_TEXT.refunded, `${money(receipt.refundedInCents)}${when}`);
    total(RECEIPT_TEXT.net, money(receipt.amountInCents - receipt.refundedInCents), 'Helvetica-Bold');
  }
  doc.end();
  return done;
}

const SHOWN = /[\x20-\x7e\xa0-\xff]/;

/** What Helvetica's encoding can show: a letter outside it loses its accents (ī → i), anything else becomes `?`. */
function latin1(text: string): string {
  return [...text.normalize('NFC')]
    .map((ch) => (SHOWN.test(ch) ? ch : ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')))
    .join('')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}
