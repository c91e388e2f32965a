import { Checkbox } from '@mantine/core';
import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';

export type FormCheckboxProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPathByValue<T, boolean>;
  label: string;
  error?: string;
};

/** A checkbox bound to a boolean field of a react-hook-form form. */
export function FormCheckbox<T extends FieldValues>({ control, name, label, error }: FormCheckboxProps<T>) {
  const { field } = useController({ control, name });
  return (
    <Checkbox
      label={label}
      checked={field.value === true}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
      onBlur={field.onBlur}
      ref={field.ref}
      error={error}
    />
  );
}
