import { OPTION_PAGE, type TOption, type TOptionPage } from '@warmpath/shared';

/**
 * Page N of an option list holds the first N * 100 matches (spec section 9: the lists grow by 100),
 * searched by a case- and accent-insensitive substring.
 */
export function pageOfOptions(options: readonly TOption[], page: number, searchTerm = ''): TOptionPage {
  const needle = fold(searchTerm.trim());
  const matches = needle ? options.filter((option) => fold(option.name).includes(needle)) : options;
  const size = OPTION_PAGE.initial + (page - 1) * OPTION_PAGE.step;
  return { options: matches.slice(0, size), hasMore: matches.length > size, total: matches.length };
}

function fold(text: string) {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
