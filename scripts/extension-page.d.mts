/** The README without its from-source sections (see extension-page.mjs). */
export function extensionPage(readme: string): string;
