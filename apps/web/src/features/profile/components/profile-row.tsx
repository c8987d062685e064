import { text } from '@soundid/contracts/ui-text';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../../components/button';
import './profile-row.css';

/** One profile row: its value with a Change action, or its editor in place. */
export function ProfileRow({
  id,
  label,
  value,
  isEditing,
  onEdit,
  editor,
}: {
  id: string;
  label: string;
  value: ReactNode;
  isEditing: boolean;
  onEdit: () => void;
  editor: ReactNode;
}) {
  const changeButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(isEditing);
  // Closing an editor puts the focus back where the customer opened it.
  useEffect(() => {
    if (wasEditing.current && !isEditing) changeButton.current?.focus();
    wasEditing.current = isEditing;
  }, [isEditing]);

  return (
    <section id={id} className="profile-row" aria-labelledby={`${id}-label`}>
      <div className="profile-row__summary">
        <h2 id={`${id}-label`} className="profile-row__label">
          {label}
        </h2>
        {!isEditing && (
          <>
            <div className="profile-row__value">{value}</div>
            <Button
              ref={changeButton}
              variant="link"
              className="profile-row__action"
              aria-label={`${text.change} ${label}`}
              onClick={onEdit}
            >
              {text.change}
            </Button>
          </>
        )}
      </div>
      {isEditing && <div className="profile-row__editor">{editor}</div>}
    </section>
  );
}
