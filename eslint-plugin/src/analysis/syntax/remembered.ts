/**
 * `compute`, with its answers kept per name. Names (of variables, columns, tables) repeat across
 * a project, so each is judged once; the store is emptied when it grows past `limit`.
 */
export function remembered<T>(compute: (name: string) => T, limit = 20_000): (name: string) => T {
  const answers = new Map<string, T>();
  return (name) => {
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = compute(name);
      if (answers.size >= limit) answers.clear();
      answers.set(name, answer);
    }
    return answer;
  };
}
