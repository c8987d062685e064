import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { checkoutSessions, paymentRefunds, type ReceiptParties } from '../../db/payments-schema';
import { users } from '../../db/schema';
import { Fault } from '../../lib/fault';

/**
 * Receipts of card purchases (docs/decisions/0058-receipts.md): what one paid checkout session,
 * the seller and buyer fixed when it was credited, and its refunds record, read when the
 * receipt is asked for or mailed; the PDF itself is never stored.
 */

/** Who sells (RECEIPT_SELLER_*): one place, the service's configuration. */
export interface Seller {
  name: string;
  /** The postal address, a line an entry. */
  address: string[];
  /** VAT or other tax registration number; absent: no line. */
  taxId: string | undefined;
}

export interface Receipt {
  /** The invoice number: the checkout's invoice tag. */
  invoiceTag: string;
  seller: Seller;
  buyer: { email: string; address: string[] };
  /** The bundle's title and its tokens. */
  item: string;
  quantity: number;
  amountInCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** When the payment completed (the session's completion). */
  paidAt: Date;
  /** What the provider reported refunded so far, and when it last did; 0: none. */
  refundedInCents: number;
  refundedAt: Date | undefined;
}

/** Only a paid session has a receipt; any other, another customer's or an unknown one is not found. */
export async function receiptOf(db: Queryable, seller: Seller, invoiceTag: string, ownerId?: string): Promise<Receipt> {
  const [row] = await db
    .select({ session: checkoutSessions, buyer: users })
    .from(checkoutSessions)
    .innerJoin(users, eq(users.id, checkoutSessions.userId))
    .where(
      and(
        eq(checkoutSessions.invoiceTag, invoiceTag),
        eq(checkoutSessions.status, 'succeeded'),
        ownerId === undefined ? undefined : eq(checkoutSessions.userId, ownerId),
      ),
    )
    .limit(1);
  // The same fault as an unknown tag: whether another customer's payment exists is not told (ASVS 8.2.2).
  const paidAt = row?.session.completedAt;
  if (!row || !paidAt) throw new Fault('PaymentNotFound');
  const { session } = row;
  // Fixed at payment (ADR 0058 addendum); a payment credited before that was kept reads today's.
  const parties = session.receiptParties ?? partiesOf(seller, row.buyer);
  const [refund] = await db
    .select({ refunded: paymentRefunds.refundedInCents, at: paymentRefunds.receivedAt })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.invoiceTag, invoiceTag))
    .limit(1);
  return {
    invoiceTag,
    seller: { ...parties.seller, taxId: parties.seller.taxId },
    buyer: parties.buyer,
    item: `${session.bundleTitle} (${session.tokenAmount.toLocaleString('en-US')} voice AI tokens)`,
    quantity: 1,
    amountInCents: session.amountInCents,
    currency: session.currency,
    paidAt,
    refundedInCents: refund?.refunded ?? 0,
    refundedAt: refund && refund.refunded > 0 ? refund.at : undefined,
  };
}

/**
 * Seller and buyer as the receipt will print them, read in the transaction that credits the
 * payment, so that a later change of the seller's configuration or of the customer's profile
 * leaves the receipt of this payment as it was.
 */
export async function receiptPartiesAt(tx: Queryable, seller: Seller, userId: string): Promise<ReceiptParties> {
  const [buyer] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!buyer) throw new Error(`the paying customer ${userId} is not on record`);
  return partiesOf(seller, buyer);
}

function partiesOf(seller: Seller, buyer: Parameters<typeof billingAddressOf>[0] & { email: string }): ReceiptParties {
  const { taxId, ...rest } = seller;
  return {
    seller: taxId === undefined ? rest : { ...rest, taxId },
    buyer: { email: buyer.email, address: billingAddressOf(buyer) },
  };
}

/** The profile's address (Profile → Address), the lines that are filled in. */
function billingAddressOf(user: {
  addressLine1: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}): string[] {
  const cityLine = [user.postalCode, user.city].filter(Boolean).join(' ');
  return [user.addressLine1, cityLine, user.state, user.country].map((line) => line.trim()).filter(Boolean);
}

/** The receipt's file name: the invoice number. */
export function receiptFileName(invoiceTag: string): string {
  return `receipt-${invoiceTag}.pdf`;
}
