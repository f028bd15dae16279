// uid → user name, from /etc/passwd, for the audit row of an override. Read at each call:
// overrides are rare, and a user added after the daemon started is named too.
import { readFileSync } from 'node:fs';

export function userNameFromPasswd(uid: number, passwdPath = '/etc/passwd'): string | null {
  let text: string;
  try {
    text = readFileSync(passwdPath, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 3 && Number(fields[2]) === uid && fields[2] !== '') return fields[0] || null;
  }
  return null;
}
