import { PDFParse } from 'pdf-parse';

/** A PDF's text as a reader extracts it (pdf-parse, ADR 0058): the tests read receipts back with it. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
