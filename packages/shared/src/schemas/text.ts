import { z } from 'zod';

// One rule for every string a client sends: no NUL, and no half of a surrogate pair. Neither is ever
// part of a real name, term or file name; PostgreSQL cannot store NUL, and an unpaired surrogate has
// no UTF-8 form. Refused at the door with the field's name, they never reach a query or a log.

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** Whether `text` is free of NUL characters and unpaired surrogates. */
export const isSafeText = (text: string) => !text.includes('\0') && !UNPAIRED_SURROGATE.test(text);

/**
 * The path of each string (object keys included) of a parsed JSON value, a query or route parameters
 * that breaks the rule. Walked with a list, not recursion: a body nested ten thousand deep is
 * refused like any other, not a stack overflow.
 */
export function unsafeTextPaths(value: unknown): (string | number)[][] {
  // Each value knows its parent and key; a path is spelled out only for what is found.
  type Step = { value: unknown; key: string | number | null; parent: Step | null };
  const pathOf = (step: Step, key?: string) => {
    const path: (string | number)[] = key === undefined ? [] : [key];
    for (let at: Step | null = step; at && at.key !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const found: (string | number)[][] = [];
  const pending: Step[] = [{ value, key: null, parent: null }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const current = step.value;
    if (typeof current === 'string') {
      if (!isSafeText(current)) found.push(pathOf(step));
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        pending.push({ value: current[index], key: index, parent: step });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current).reverse()) {
        if (!isSafeText(key)) found.push(pathOf(step, key));
        pending.push({ value: item, key, parent: step });
      }
    }
  }
  return found;
}

/** Any input, refused with an issue at each string that breaks the rule. */
export const ZSafeText = z.unknown().superRefine((value, context) => {
  for (const path of unsafeTextPaths(value)) context.addIssue({ code: 'custom', path, message: UNSAFE_TEXT_MESSAGE });
});

/** `schema`, after the rule: what every contract's params, query and body are validated with. */
export const withSafeText = <T extends z.ZodType>(schema: T) => ZSafeText.pipe(schema);
