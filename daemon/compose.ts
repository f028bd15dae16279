// Wires the daemon's parts together: store, catalog, services and the fastify app.
// main.ts adds the process concerns (lock, listen, signals); tests use this directly
// with a temporary database and `app.inject()`.
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createControlService, type ControlService } from './control/control-service.js';
import { createAuditHandler } from './effects/audit-handler.js';
import { createEffectRunner, type EffectHandler } from './effects/effect-runner.js';
import { createLogHandler } from './effects/log-handler.js';
import type { ProtectedGround } from '../workflows/index.js';
import { isWithin } from '../workflows/shell/paths.js';
import { GOBBY_HOOK_EVENTS } from '../hooks/install.js';
import { createHookService } from './hook-service.js';
import { createHookSettingsWatch, MANAGED_SETTINGS_FILES } from './hook-settings-watch.js';
import { createEventProvenance } from './provenance/event-provenance.js';
import { createOverrideOrigin } from './provenance/override-origin.js';
import { createProcReader, type ProcReader } from './provenance/proc-reader.js';
import { userNameFromPasswd } from './provenance/user-names.js';
import type { HomeLayout } from './home-layout.js';
import { buildServer } from './http/build-server.js';
import { BUILTIN_TEMPLATES_DIR, MIGRATIONS_DIR, PACKAGE_ROOT, PACKAGE_VERSION } from './package-info.js';
import { ownProcess } from './own-process.js';
import { createProjectRootResolver } from './project-root.js';
import { createSelectedWorkflows } from './selected-workflow.js';
import { createSessionWorkflows } from './session-workflows.js';
import { checkDatabase, createDatabaseHealth } from './store/database-health.js';
import { openDatabase } from './store/open-database.js';
import { createStore, type Store } from './store/store.js';
import { createIdleCollector } from './idle-collector.js';
import { startWalCheckpointer } from './store/wal-checkpointer.js';
import { createWorkflowCatalog, type WorkflowCatalog } from './workflow-catalog.js';

export interface ComposeOptions {
  readonly layout: HomeLayout;
  readonly token: string;
  readonly logger: FastifyServerOptions['loggerInstance'] | false;
  readonly bodyLimitBytes: number;
  readonly watchDefinitions: boolean;
  readonly clock?: () => number;
  readonly builtinTemplatesDirectory?: string;
  readonly shutdown?: () => void;
  readonly onReloadError?: (errors: readonly { file: string; message: string }[]) => void;
  readonly onDefinitionsChanged?: (directory: string) => void;
  /**
   * Checkpoint the WAL in a worker thread (needs the built .js files, so main.ts turns it
   * on and tests running the TypeScript sources leave SQLite's own autocheckpoint).
   */
  readonly checkpointInWorker?: boolean;
  readonly onCheckpointError?: (error: Error) => void;
  /** Empty V8's young generation while no request comes (idle-collector.ts); main.ts turns it on. */
  readonly collectWhenIdle?: boolean;
  /** More effect handlers after the built-in ones (tests use this to watch or break effects). */
  readonly extraEffectHandlers?: readonly EffectHandler[];
  /** The user's home, for `~` in the agent's shell commands and ~/.claude (default: the daemon's). */
  readonly userHome?: string;
  /** Where hook senders are looked up (default: this machine's /proc). */
  readonly procReader?: ProcReader;
}

export interface ComposedDaemon {
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly controlService: ControlService;
  readonly schemaVersion: number;
  /** Closes the app, the watchers and the database. */
  close(): Promise<void>;
}

export function composeDaemon(options: ComposeOptions): ComposedDaemon {
  const clock = options.clock ?? (() => Date.now());
  const startedAt = clock();
  const { db, schemaVersion } = openDatabase(options.layout.database, MIGRATIONS_DIR, startedAt);
  const databaseHealth = createDatabaseHealth(checkDatabase(db));
  const store = createStore(db);
  const checkpointer = options.checkpointInWorker
    ? startWalCheckpointer(db, options.layout.database, options.onCheckpointError ?? (() => undefined))
    : undefined;
  const catalog = createWorkflowCatalog({
    builtinDirectory: options.builtinTemplatesDirectory ?? BUILTIN_TEMPLATES_DIR,
    userDirectory: options.layout.userWorkflows,
    watch: options.watchDefinitions,
    ...(options.onReloadError ? { onReloadError: options.onReloadError } : {}),
    ...(options.onDefinitionsChanged ? { onDirectoryChanged: options.onDefinitionsChanged } : {}),
  });
  const resolveProjectRoot = createProjectRootResolver();
  const selected = createSelectedWorkflows({ store, catalog });
  const sessionWorkflows = createSessionWorkflows({ store, catalog, selected });
  const userHome = options.userHome ?? homedir();
  // gobby's own ground in a project: built once per project root, not on every hook event, and
  // again when the port changes or the catalog has read a definition folder again.
  const grounds = new Map<string, { readonly ground: ProtectedGround; readonly project: readonly string[]; readonly user: readonly string[] }>();
  const daemonProcess = ownProcess();
  const { layout } = options;
  // The files gobby keeps in its home, whether or not they exist yet.
  const homeFiles = [layout.database, `${layout.database}-wal`, `${layout.database}-shm`, layout.logFile, layout.startupLog, layout.config, layout.token, layout.daemonFile, layout.lockFile];
  const groundFor = (projectRoot: string): ProtectedGround => {
    const known = grounds.get(projectRoot);
    const definitions = catalog.definitionFiles(projectRoot);
    // Built again only if the listening port changed (an app under inject() listens nowhere).
    if (known && known.ground.daemonPort === listeningPort() && known.project === definitions.project && known.user === definitions.user) return known.ground;
    const ground: ProtectedGround = {
      secretFiles: [layout.token],
      protectedPaths: [
        layout.home,
        join(projectRoot, '.gobby'),
        ...['settings.json', 'settings.local.json'].flatMap((file) => [join(projectRoot, '.claude', file), join(userHome, '.claude', file)]),
        // Claude Code's policy folders: a change there cannot be blocked once written (ConfigChange
        // does not stop one), and managed settings can switch every other hook off.
        ...MANAGED_SETTINGS_FILES.map((file) => dirname(file)),
        // Claude Code's own shell state, sourced before every later Bash command: code written
        // there would run inside commands gobby has already judged.
        join(userHome, '.claude', 'shell-snapshots'),
        join(userHome, '.claude', 'session-env'),
        // The launchers `gobby setup` writes: the user's overrides run through them.
        join(userHome, '.local', 'bin', 'gobby'),
        join(userHome, 'bin', 'gobby'),
        // gobby's installed package (`rm -rf …/node_modules/gobby` takes the hooks' command away),
        // unless the project is gobby's own repository or holds it: then it is the project's code.
        ...(isWithin(projectRoot, PACKAGE_ROOT) || isWithin(PACKAGE_ROOT, projectRoot) ? [] : [PACKAGE_ROOT]),
      ],
      protectedFolders: [join(projectRoot, '.claude'), join(userHome, '.claude')],
      filesInside: [...homeFiles, ...definitions.user, ...definitions.project],
      home: userHome,
      protectedNames: ['.claude/settings.json', '.claude/settings.local.json', '.gobby', 'GOBBY_HOME', layout.home, 'managed-settings.json', 'disableAllHooks', 'allowManagedHooksOnly'],
      daemonPort: listeningPort(),
      daemonPid: process.pid,
      daemonProcess,
    };
    grounds.set(projectRoot, { ground, project: definitions.project, user: definitions.user });
    return ground;
  };
  // Asked by the request guard and the ground of every hook event. The port never changes once
  // the server listens, so it is read once: server.address() is a getsockname call (2.5 µs here)
  // that the daemon's CPU profile showed on every request.
  let knownPort: number | undefined;
  const listeningPort = (): number | undefined => {
    if (knownPort !== undefined) return knownPort;
    const address = app.server.address();
    knownPort = address && typeof address === 'object' ? address.port : undefined;
    return knownPort;
  };
  const log = options.logger || undefined;
  const effects = createEffectRunner({
    store,
    clock,
    handlers: [createAuditHandler(store), ...(log ? [createLogHandler(log)] : []), ...(options.extraEffectHandlers ?? [])],
    onError: ({ handler, effect, error }) => log?.error({ err: error, handler, effect }, 'an effect failed; the hook answer stands'),
  });
  const damage = databaseHealth.current().problem;
  if (damage !== null) log?.error({ database: options.layout.database, problem: damage }, 'the database is damaged: requests that need it are refused');
  // Durable effects a crash cut off (kill -9 between a commit and its effects) run now; not into a damaged file.
  const resumed = damage === null ? effects.resume() : 0;
  if (resumed > 0) log?.warn({ resumed }, 'finished effects left in the outbox by the previous daemon');
  const hookSettings = createHookSettingsWatch({
    userHome,
    hookUrl: () => `http://127.0.0.1:${listeningPort() ?? 0}/hooks/PreToolUse`,
    expectedEvents: GOBBY_HOOK_EVENTS,
  });
  const hookService = createHookService({
    store,
    catalog,
    sessionWorkflows,
    effects,
    resolveProjectRoot,
    clock,
    home: userHome,
    gobbyHome: options.layout.home,
    groundFor,
    hookSettings,
  });
  const proc = options.procReader ?? createProcReader();
  const provenance = createEventProvenance({
    proc,
    registeredProcess: (sessionId) => store.sessionProcesses.get(sessionId),
    clock: () => Date.now(),
  });
  const overrideOrigin = createOverrideOrigin({
    proc,
    registeredWithPid: (pid) => store.sessionProcesses.withPid(pid),
    registeredProcess: (sessionId) => store.sessionProcesses.get(sessionId),
    userName: (uid) => userNameFromPasswd(uid),
    clock: () => Date.now(),
  });
  const controlService = createControlService({ store, catalog, selected, sessionWorkflows, effects, resolveProjectRoot, clock });
  const idleCollector = options.collectWhenIdle ? createIdleCollector() : undefined;
  if (idleCollector && !idleCollector.enabled) log?.info('node was started without --expose-gc (daemon start --foreground): no young-generation collection while idle');
  const app = buildServer({
    ...(idleCollector?.enabled ? { requestArrived: idleCollector.requestArrived } : {}),
    hookService,
    provenance,
    overrideOrigin,
    controlService,
    token: options.token,
    logger: options.logger,
    bodyLimitBytes: options.bodyLimitBytes,
    shutdown: options.shutdown ?? (() => undefined),
    databaseHealth,
    info: {
      version: PACKAGE_VERSION,
      home: options.layout.home,
      databasePath: options.layout.database,
      schemaVersion,
      databaseHealth: databaseHealth.current,
      startedAt,
      clock,
      port: listeningPort,
      // `gobby daemon status` must answer with a damaged database too.
      activeSessions: () => (databaseHealth.current().ok ? store.sessions.countActive() : 0),
    },
  });
  return {
    app,
    store,
    catalog,
    controlService,
    schemaVersion,
    async close() {
      await app.close();
      await catalog.close();
      await checkpointer?.stop();
      idleCollector?.close();
      db.close();
    },
  };
}
