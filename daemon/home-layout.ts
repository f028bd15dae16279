// The files of $GOBBY_HOME (design §3.1).
import { join } from 'node:path';

export interface HomeLayout {
  readonly home: string;
  readonly database: string;
  readonly logDirectory: string;
  readonly logFile: string;
  readonly startupLog: string;
  readonly config: string;
  readonly token: string;
  readonly daemonFile: string;
  readonly lockFile: string;
  readonly userWorkflows: string;
}

export function homeLayout(home: string): HomeLayout {
  return {
    home,
    database: join(home, 'gobby.db'),
    logDirectory: join(home, 'logs'),
    logFile: join(home, 'logs', 'daemon.log'),
    startupLog: join(home, 'logs', 'daemon-start.log'),
    config: join(home, 'config.json'),
    token: join(home, 'token'),
    daemonFile: join(home, 'daemon.json'),
    lockFile: join(home, 'daemon.lock'),
    userWorkflows: join(home, 'workflows'),
  };
}
