/**
 * Reads untrusted JSON into typed values. Every complaint names the file and the field path
 * (`questions[1].options.b`), so a broken lesson file is fixed from the message alone.
 */

export class LessonFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(field ? `${file}: ${field}: ${problem}` : `${file}: ${problem}`);
    this.name = 'LessonFileError';
  }
}

type Json = unknown;

export class JsonReader {
  constructor(
    readonly file: string,
    private readonly value: Json,
    readonly path = '',
  ) {}

  fail(problem: string): never {
    throw new LessonFileError(this.file, this.path, problem);
  }

  /** The child `name` of an object; missing fields are reported when the child is read. */
  field(name: string): JsonReader {
    const object = this.object();
    return new JsonReader(
      this.file,
      Object.hasOwn(object, name) ? object[name] : undefined,
      this.path ? `${this.path}.${name}` : name,
    );
  }

  has(name: string): boolean {
    return Object.hasOwn(this.object(), name);
  }

  items(): JsonReader[] {
    this.present();
    if (!Array.isArray(this.value)) this.fail(`expected a list, found ${describe(this.value)}`);
    return this.value.map((item, index) => new JsonReader(this.file, item, `${this.path}[${index}]`));
  }

  /** The fields of an object, in file order. */
  entries(): [string, JsonReader][] {
    return Object.keys(this.object()).map((name) => [name, this.field(name)]);
  }

  string(): string {
    this.present();
    if (typeof this.value !== 'string') this.fail(`expected text, found ${describe(this.value)}`);
    if (this.value.trim() === '') this.fail('is empty');
    return this.value;
  }

  matching(pattern: RegExp, meaning: string): string {
    const text = this.string();
    if (!pattern.test(text)) this.fail(`expected ${meaning}, found "${text}"`);
    return text;
  }

  oneOf<T extends string>(allowed: readonly T[]): T {
    const text = this.string();
    if (!(allowed as readonly string[]).includes(text))
      this.fail(`expected one of ${allowed.join(', ')}, found "${text}"`);
    return text as T;
  }

  nullableString(): string | null {
    return this.value === null ? null : this.string();
  }

  number(): number {
    this.present();
    if (typeof this.value !== 'number' || !Number.isFinite(this.value))
      this.fail(`expected a number, found ${describe(this.value)}`);
    return this.value;
  }

  /** Markdown may be one string or a list of lines, which read better in JSON for several paragraphs. */
  markdown(): string {
    if (Array.isArray(this.value)) {
      const lines = this.items().map((line) => {
        if (typeof line.value !== 'string') line.fail(`expected a line of text, found ${describe(line.value)}`);
        return line.value;
      });
      if (lines.join('').trim() === '') this.fail('is empty');
      return lines.join('\n');
    }
    return this.string();
  }

  private present(): void {
    if (this.value === undefined) this.fail('is missing');
  }

  /** The raw value, for callers that check a shape of their own. */
  raw(): Json {
    return this.value;
  }

  private object(): Record<string, Json> {
    if (typeof this.value !== 'object' || this.value === null || Array.isArray(this.value)) {
      this.fail(this.value === undefined ? 'is missing' : `expected an object, found ${describe(this.value)}`);
    }
    return this.value as Record<string, Json>;
  }
}

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value === 'object' ? 'an object' : typeof value === 'number' || typeof value === 'boolean' ? `${typeof value} ${value}` : typeof value}`;
}
