import type { CallResult } from '@soundid/contracts';
import { useId } from 'react';

export type Product = CallResult<'AdminProducts'>[number];

/** A required choice of one product (AdminProducts), named `product`; nothing chosen at first. */
export function ProductSelect({ products, label = 'Product' }: { products: readonly Product[]; label?: string }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} name="product" required defaultValue="">
        <option value="" disabled>
          Choose a product
        </option>
        {products.map((p) => (
          <option key={p.Code} value={p.Code}>
            {p.DisplayName} ({p.Code})
          </option>
        ))}
      </select>
    </>
  );
}
