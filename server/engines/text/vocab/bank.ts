/** The shape of a phrase bank entry, and a compact way of writing banks. */

export interface Phrase {
  readonly text: string;
  /**
   * Topics the phrase suits; an empty list (or the tag `any`) marks a phrase that suits anything a
   * little. Tags written `!topic` are required: the phrase fits only scenes with one of them.
   */
  readonly tags: readonly string[];
}

/** A phrase with a short note, for list answers ("ember orange: the glow of firelight"). */
export interface NotedPhrase extends Phrase {
  readonly note: string;
}

/** A rendering style; photographic ones get a lens and photographic finish, the rest do not. */
export interface StylePhrase extends Phrase {
  readonly photo: boolean;
}

/** Builds a bank from `[text, 'space separated tags']` pairs. */
export function bank(rows: readonly (readonly [string, string])[]): readonly Phrase[] {
  return rows.map(([text, tags]) => ({ text, tags: tags.split(' ').filter(Boolean) }));
}

export function notedBank(rows: readonly (readonly [string, string, string])[]): readonly NotedPhrase[] {
  return rows.map(([text, note, tags]) => ({ text, note, tags: tags.split(' ').filter(Boolean) }));
}
