import type { CallResult } from '@soundid/contracts';
import { useId } from 'react';

export type Product = CallResult<'AdminProducts'>[number];

/** A required choice of one product (AdminProducts), by its code; nothing chosen at first. */
export function ProductSelect({
  products,
  name = 'product',
  label = 'Product',
}: {
  products: readonly Product[];
  name?: string;
  label?: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} required defaultValue="">
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
