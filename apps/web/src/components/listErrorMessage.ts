import type { FieldError, Merge } from 'react-hook-form';

/** What react-hook-form reports for a list of strings: an error of the list, or of some of its items. */
export type ListFieldError = Merge<FieldError, (FieldError | undefined)[]>;

/** The list's own error, else the first refused item's. */
export function listErrorMessage(error: ListFieldError | undefined, count: number): string | undefined {
  if (!error) return undefined;
  if (error.message) return error.message;
  for (let index = 0; index < count; index += 1) {
    const message = error[index]?.message;
    if (message) return message;
  }
  return undefined;
}
