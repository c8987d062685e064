/** A form's text field, trimmed ('' when the form has none of that name). */
export const fieldText = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();
