import { text } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { TextField, type TextFieldProps } from './text-field';

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'adornment'>) {
  const [isVisible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={isVisible ? 'text' : 'password'}
      adornment={
        <button type="button" className="field__toggle" aria-pressed={isVisible} onClick={() => setVisible((v) => !v)}>
          {isVisible ? text.hidePassword : text.showPassword}
        </button>
      }
    />
  );
}
