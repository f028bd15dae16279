// Starts a helper HTTP server in its own node process (so its CPU is not the bench's) and
// reads the port it prints on its first line of stdout.
import { spawn, type ChildProcess } from 'node:child_process';

export async function spawnPortPrintingServer(args: readonly string[], name: string): Promise<{ process: ChildProcess; port: number }> {
  // Its stdin is a pipe from this process: when the bench dies, the server goes too.
  const child = spawn(process.execPath, [...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(Number(text.trim()));
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}`)));
  });
  return { process: child, port };
}
