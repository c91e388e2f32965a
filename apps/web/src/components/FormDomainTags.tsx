import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';
import { listErrorMessage } from './listErrorMessage.ts';
import { TagInput } from './TagInput.tsx';

export type FormDomainTagsProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPathByValue<T, string[]>;
  label: string;
  /** 5 at sign-up (TagInput's default), 10 for workspace domains, 50 for exclusions. */
  max?: number;
};

/** Domain tags bound to a list field of a react-hook-form form, with the list's or an item's error. */
export function FormDomainTags<T extends FieldValues>({ control, name, label, max }: FormDomainTagsProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const tags: string[] = Array.isArray(field.value) ? field.value : [];
  return (
    <TagInput
      label={label}
      description="Press Enter to add a domain."
      max={max}
      value={tags}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={listErrorMessage(fieldState.error, tags.length)}
    />
  );
}
