import { OPERATOR_ROLES, type OperatorRole } from '@soundid/contracts';
import { useId } from 'react';

const ROLE_HINTS: Record<OperatorRole, string> = {
  support: 'customers’ everyday tickets',
  finance: 'tokens, payments and refunds',
  admin: 'operators, keys and codes, releases, the service',
};

/** The roles as checkboxes named `role` (FormData.getAll('role') reads them). */
export function RoleFields({ checked = [] }: { checked?: readonly OperatorRole[] }) {
  const id = useId();
  return (
    <fieldset className="roles-field">
      <legend>Roles</legend>
      {OPERATOR_ROLES.map((role) => (
        <div key={role} className="check">
          <input
            id={`${id}-${role}`}
            type="checkbox"
            name="role"
            value={role}
            defaultChecked={checked.includes(role)}
          />
          <label htmlFor={`${id}-${role}`}>
            {role} <span className="hint">({ROLE_HINTS[role]})</span>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/** The roles ticked, from a form's values (`role` repeated). */
export function rolesOf(form: FormData): OperatorRole[] {
  return form.getAll('role').map(String) as OperatorRole[];
}
