// Every data-printing command takes --json: scripts get the object, people get text.
export interface OutputOptions {
  readonly json: boolean;
}

export function printResult(output: OutputOptions, data: unknown, human: () => string): void {
  process.stdout.write(output.json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}
