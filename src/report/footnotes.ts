/** Numbered Markdown footnotes, one per distinct text (a reason shared by two targets gets two, each naming its target). */
import { inlineText } from './markdownTable';

export class Footnotes {
  private readonly texts: string[] = [];

  /** `prefix` keeps each section's labels apart (`[^phase-1]`, `[^split-1]`). */
  constructor(private readonly prefix: string) {}

  ref(text: string): string {
    let index = this.texts.indexOf(text);
    if (index === -1) index = this.texts.push(text) - 1;
    return `[^${this.prefix}-${index + 1}]`;
  }

  lines(): string[] {
    if (this.texts.length === 0) return [];
    return [...this.texts.map((text, i) => `[^${this.prefix}-${i + 1}]: ${inlineText(text)}`), ''];
  }
}
