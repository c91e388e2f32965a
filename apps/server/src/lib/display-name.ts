// A person's name as mail headers carry it ('"Almeida, Caio"', 'Turing (6)', 'JOHN SMITH'), cleaned
// into the name the network shows. Null when nothing in it is a name (an address, quotes only).

const QUOTES = /^["'`“”‘’]+|["'`“”‘’]+$/g;
/** A count some clients append to a sender's name: 'Turing (6)', 'Ada [2]'. */
const COUNT = /\s*[([]\d+[)\]]\s*$/;

const titleCase = (word: string) =>
  word
    .toLocaleLowerCase()
    .replace(/(^|[-'’])(\p{L})/gu, (_match, before: string, letter: string) => before + letter.toLocaleUpperCase());

export function cleanDisplayName(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let name = raw.replace(/\s+/g, ' ').trim().replace(QUOTES, '').replace(COUNT, '').replace(QUOTES, '').trim();
  if (!name || name.includes('@')) return null;
  // 'Last, First' (one comma, a word or more either side) is the directory order: reversed.
  const parts = name.split(',').map((part) => part.trim());
  if (parts.length === 2 && parts[0] && parts[1]) name = `${parts[1]} ${parts[0]}`;
  // A name written all in capitals (in a script that has cases) reads as a person's name in title case;
  // three capitals or fewer are more likely initials or an acronym (IBM), kept.
  if (/\p{Lu}/u.test(name) && name === name.toLocaleUpperCase() && name.replace(/[^\p{L}]/gu, '').length > 3) {
    name = name.split(' ').map(titleCase).join(' ');
  }
  return name;
}
