/** Counts the `Intl.NumberFormat`s made from now on, by locale, until `restore` (tests). */
export function countNumberFormats(): { readonly made: string[]; restore(): void } {
  const NumberFormat = Intl.NumberFormat;
  const made: string[] = [];
  Intl.NumberFormat = class extends NumberFormat {
    constructor(locale?: string, options?: Intl.NumberFormatOptions) {
      super(locale, options);
      made.push(String(locale));
    }
  } as typeof Intl.NumberFormat;
  return { made, restore: () => (Intl.NumberFormat = NumberFormat) };
}
