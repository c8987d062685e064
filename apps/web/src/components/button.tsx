import type { ComponentProps } from 'react';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  isBusy?: boolean;
}

export function Button({ variant = 'primary', isBusy = false, className, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={['button', `button--${variant}`, className].filter(Boolean).join(' ')}
      aria-busy={isBusy || undefined}
      {...props}
    />
  );
}
