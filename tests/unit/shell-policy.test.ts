// judgeShellCommand alone: what a phase that restricts file changes refuses of a command's
// effects, where the daemon's ground would not already have refused it first, and for a home
// and a project the test chooses (the daemon's tests run with the machine's own home).
import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../../workflows/index.js';
import { judgeShellCommand } from '../../workflows/shell-policy.js';

const RESTRICTS = { restrictsFileChanges: true, allowPrograms: [], allowOpaque: false };

function refusal(command: string, projectRoot: string, home: string): string | undefined {
  const analysis = analyzeShellCommand(command, { cwd: projectRoot, home, projectRoot });
  return judgeShellCommand(analysis, RESTRICTS, { projectRoot, home })?.what;
}

describe('a phase that restricts file changes, for a project outside the home (/srv/app, /work/app)', () => {
  it.each(['rm -rf ~', 'rm -rf /home/dev', 'mv ~ /tmp/old-home', 'rm -rf /home'])('refuses %j: the home, or a folder that holds it, takes its dot files along', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toMatch(/^(deletes|moves) \/home/);
  });

  it.each(['rm -rf /home/other', 'rm -rf /tmp/build', 'rm -rf ~/scratch/x'])('lets %j through: no project file, no dot file', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });
});

describe('a phase that restricts file changes, for a glob from a folder above the home or the system', () => {
  it.each(['echo x >> /home/*/.bashrc', 'cp x /home/*/.ssh/config', 'echo x > ~/../*/.gitconfig', 'echo x > /h*/dev/.profile', 'cp x /home/*/bin/ls', 'echo > /**/.profile', 'cp x /u*/local/bin/grep', 'cp x /e?c/profile.d/x.sh', 'echo x > /*/gitconfig'])(
    'refuses %j: it may name a dot file of the home or a system file',
    (command) => {
      expect(refusal(command, '/srv/app', '/home/dev')).toMatch(/^(writes|copies onto) /);
    },
  );

  it.each(['echo x > /home/*/notes.txt', 'cp a.log /home/*/scratch/', 'rm -f /tmp/*.log', 'echo x > /tmp/*/x', 'rm -rf /var/tmp/*'])('lets %j through: no dot file, no system file, no project file', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });
});

describe('a phase that restricts file changes, for hard links and pasted keys', () => {
  it.each(['rsync -a --link-dest=/srv/app/src src/ /tmp/s/', 'find src | cpio -pdl /tmp/s', 'pax -rwl src /tmp/s', "tmux set-buffer 'rm src/x.ts'; tmux paste-buffer -t 1"])(
    'refuses %j: a link to a project file is that file, and pasted text runs in a shell',
    (command) => {
      expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
    },
  );

  it.each(['rsync -a src/ /tmp/s/', 'find src | cpio -pd /tmp/s', 'pax -rw src /tmp/s'])('lets %j through: copies', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });
});

describe('a phase that restricts file changes, for code the tests load from outside the project', () => {
  it.each(['chmod -R u+w ~/go/pkg/mod', 'cp /tmp/zz.go ~/go/pkg/mod/github.com/a/b@v1.0.0/', 'echo x > /home/dev/node_modules/x.js', 'pytest -o testpaths=/tmp/e', 'python3 -m pytest --override-ini=testpaths=..'])(
    'refuses %j',
    (command) => {
      expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
    },
  );

  it.each([
    // Variables that name code a test run or a build loads or runs, or hold a command.
    'PYTHONPYCACHEPREFIX=/tmp/pyc pytest',
    'RUSTDOC=/tmp/x.sh cargo test',
    'CHROME_BIN=/tmp/x.sh npx karma start',
    'TS_NODE_PROJECT=/tmp/tsconfig.json npx mocha',
    'CGO_CFLAGS=-B/tmp go test ./...',
    "RSYNC_RSH=\"sh -c 'echo x > src/x.ts'\" rsync x:/a /tmp/b",
    "LUA_INIT='os.execute(\"/tmp/x.sh\")' busted",
  ])('refuses %j: a variable names code the agent may have written, or holds a command', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });

  it.each(['CGO_ENABLED=0 go test ./...', 'TS_NODE_TRANSPILE_ONLY=true npx mocha', 'TS_NODE_PROJECT=tsconfig.test.json npx mocha', 'CHROME_BIN=/usr/bin/chromium npx karma start', 'CGO_CFLAGS=-O2 go test ./...', "RSYNC_RSH='ssh -p 2222' rsync -a src/ /tmp/s/"])('lets %j through: switches, and files of the project or the system', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });

  it.each(['echo x > ~/go/notes.txt', 'pytest -o testpaths=tests', 'go test ./...'])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });
});

describe('a phase that restricts file changes, for what only looks, prints help, or writes a stamped scratch file', () => {
  it.each([
    'git add -n . && git add --dry-run src && git rm -n src/x.ts && git mv -n a.ts b.ts && git stage -n src/a.ts',
    'git reflog expire --dry-run --all && git rerere status && git rerere diff && git replace -l',
    'gobby workflow phase --help && gobby workflow set --help && terraform init -help',
    'npm test > /tmp/test-$(git rev-parse --short HEAD).log 2>&1',
    'npm test 2>&1 | tee /tmp/test-$(date +%Y%m%d-%H%M%S).log && cp package.json "/tmp/package.$(date +%F).json"',
  ])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });

  it.each(['git add .', 'git rm src/x.ts', 'git rerere', 'terraform init', 'echo x > /tmp/$(date +%D).txt', 'echo x > src/$(date +%s).ts', 'echo x > /tmp/$(date).txt'])('refuses %j', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });
});

describe('a phase that restricts file changes, for build tools read by their option and subcommand tables', () => {
  it.each([
    './gradlew dependencies --configuration runtimeClasspath',
    './gradlew :app:dependencies && ./gradlew -q :app:dependencyInsight --dependency okhttp',
    './gradlew lint && ./gradlew :app:lintDebug spotlessCheck ktlintCheck detekt && ./gradlew lint test',
    'mvn spotless:check && mvn -q checkstyle:check',
    'go test -c -o /tmp/x.test ./pkg',
    'swift package describe && swift package show-dependencies --format json && swift package dump-package',
    'go tool nm /tmp/app && go tool objdump -s main.main /tmp/app && go tool addr2line /tmp/app',
    'sqlite3 db.sqlite3 ".backup /tmp/db.backup"',
    'docker save app:latest -o /tmp/app.tar && docker image save --output=/tmp/x.tar app',
    'brew --prefix node && ls $(brew --prefix)/bin && brew --cellar',
  ])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });

  it.each([
    './gradlew publish', './gradlew spotlessApply', './gradlew lintFix', './gradlew detektBaseline', './gradlew lint publish',
    './gradlew dependencies --write-locks', './gradlew lint --init-script /tmp/x.gradle', 'mvn spotless:apply', 'mvn com.evil:plugin:1.0:check',
    'go test -c -o src/x.test ./pkg', 'go test -c ./pkg', 'swift package update', 'swift package resolve', 'go tool compile x.go',
    'sqlite3 db.sqlite3 ".backup src/x.db"', 'docker save -o src/x.tar app', 'docker load -i x.tar', 'brew install x',
  ])('refuses %j', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });
});

describe('a phase that restricts file changes, for test runners, checkers and inspectors read by their tables', () => {
  it.each([
    'npx ng test --watch=false', 'hatch test && rye test', 'dune test', 'rebar3 eunit', 'elm-test', 'shellspec', 'buck2 test //app:tests', 'pants test ::',
    'mix credo && mix dialyzer', 'vendor/bin/php-cs-fixer fix --dry-run --diff', 'kubeconform -summary deploy.yaml && kubeval deploy.yaml', 'npx type-coverage --at-least 95',
    'safety check -r requirements.txt', 'detect-secrets scan', 'trufflehog filesystem --no-update .', 'interrogate -v src', 'cargo llvm-cov --text && cargo llvm-cov report',
    'cargo outdated && cargo udeps && cargo info serde && cargo pkgid && cargo locate-project && cargo read-manifest',
    'ip addr && ip -br link show && ip -4 route get 1.1.1.1 && ifconfig && ifconfig eth0', 'lsb_release -a && findmnt && blkid && vm_stat && system_profiler SPHardwareDataType',
    'timedatectl && hostnamectl && localectl && loginctl list-sessions && resolvectl status && nmcli device status && coredumpctl list',
    'systemctl list-timers && systemd-analyze blame && apt-cache policy nodejs && zipinfo app.zip && ssh-keygen -lf key.pub',
    'xcrun simctl list devices && xcrun --show-sdk-path && xcode-select -p && diskutil list && otool -L /tmp/a && plutil -p Info.plist',
    'mdfind foo && mdls x.txt && defaults read com.apple.dock && codesign -dv /Applications/X.app && scutil --get ComputerName',
    'just --list && poetry config --list && pipdeptree && git mergetool --tool-help', 'make -j$(sysctl -n hw.ncpu) test', 'npx jest --maxWorkers=$(sysctl -n hw.logicalcpu)',
  ])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });

  it.each([
    'ng lint', 'ng build', 'dune test --auto-promote', 'buck2 run //app', 'pants fmt ::', 'vendor/bin/php-cs-fixer fix', 'php-cs-fixer fix --dry-run --config=/tmp/x.php',
    'kubeconform -cache src x.yaml', 'npx type-coverage --update', 'safety check --apply-fixes', 'detect-secrets scan --update .secrets.baseline', 'detect-secrets scan --plugin /tmp/x.py',
    'detect-secrets audit .secrets.baseline', 'trufflehog filesystem .', 'cargo llvm-cov run', 'cargo llvm-cov clean', 'poetry config virtualenvs.in-project true',
    'ip route add default via 1.2.3.4', 'ip link set eth0 down', 'ip netns exec x rm -rf src', 'ip -batch /tmp/x', 'ifconfig eth0 down', 'sysctl -w kern.x=1', 'sysctl kern.x=1', 'sysctl -p /tmp/x',
    'hostnamectl hostname x', 'nmcli connection up x', 'nmcli radio wifi off', 'coredumpctl dump -o /tmp/core', 'apt-cache gencaches', 'ssh-keygen -t ed25519 -f k', 'ssh-keygen -R host',
    'ssh-keygen -l -D /tmp/lib.so', 'xcrun clang x.c', 'xcrun simctl boot x', 'xcode-select -s /tmp/x', 'diskutil eraseDisk x', 'plutil -convert xml1 Info.plist', 'mdls -plist /tmp/x f',
    'defaults write com.apple.dock x 1', 'codesign -s - app', 'codesign -d --entitlements /tmp/e.plist app', 'scutil', 'scutil --set HostName x', 'just --evaluate', 'just --fmt', 'task --list',
    'pipdeptree --python /tmp/x/bin/python', 'git mergetool', 'ldd $(which node)', 'npx playwright show-report',
  ])('refuses %j', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });
});

describe("a phase that restricts file changes, for a runner's options given in a variable", () => {
  it.each([
    'PYTEST_ADDOPTS="-x -q" pytest', 'PYTEST_ADDOPTS="--color=no" python -m pytest tests/', `PYTEST_ADDOPTS="-k 'a and b' -p no:cacheprovider" pytest`,
    'PYTEST_ADDOPTS=--junitxml=/tmp/x.xml pytest', 'GOFLAGS=-count=1 go test ./...', 'GOFLAGS="-mod=readonly -race -tags=integration" go test ./...',
    'MAVEN_OPTS="-Xmx2g -XX:+UseG1GC -Dfile.encoding=UTF-8" mvn test', 'GRADLE_OPTS="-Dorg.gradle.daemon=false" ./gradlew test',
  ])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });

  it.each([
    "PYTEST_ADDOPTS='-p /tmp/x' pytest", "PYTEST_ADDOPTS='-p myplugin' pytest", "PYTEST_ADDOPTS='-xpmyplugin' pytest", "PYTEST_ADDOPTS='-c /tmp/x.ini' pytest",
    "PYTEST_ADDOPTS='/tmp/test_x.py' pytest", "PYTEST_ADDOPTS='--junitxml=src/x.xml' pytest", 'PYTEST_ADDOPTS="$X" pytest',
    'GOFLAGS=-mod=mod go test ./...', 'GOFLAGS=-toolexec=/tmp/x go test ./...', 'GOFLAGS=-modfile=/tmp/go.mod go test ./...', 'GOFLAGS=-ldflags=-extld=/tmp/x go test ./...',
    'MAVEN_OPTS=-javaagent:/tmp/a.jar mvn test', 'MAVEN_OPTS=-Dmaven.ext.class.path=/tmp/x.jar mvn test', 'MAVEN_OPTS=-Dmaven.repo.local=/tmp/m2 mvn test',
    'MAVEN_OPTS=-XX:OnError=sh mvn test', "MAVEN_OPTS='$(rm -rf src)' mvn test", 'GRADLE_OPTS=-Dorg.gradle.jvmargs=-javaagent:/tmp/x ./gradlew test',
    'JAVA_OPTS=-javaagent:/tmp/a.jar ./gradlew test',
  ])('refuses %j', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });
});

describe('a phase that restricts file changes, for version managers that select a toolchain the user installed', () => {
  it.each([
    'nvm use && npm test', 'source ~/.nvm/nvm.sh && nvm use 20 && npm test', 'nvm exec 20 npm test', 'conda activate env && pytest', 'conda activate ./.conda && pytest',
    'pyenv exec pytest', 'asdf exec npm test',
  ])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });

  it.each(['nvm install 20', 'nvm use /tmp/x', 'nvm exec 20 rm -rf src', 'conda activate /tmp/env && pytest', 'pyenv exec rm -rf src', 'pyenv global 3.12', 'mise exec -- npm test', 'mise run test'])('refuses %j', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });
});

describe('a phase that restricts file changes, for commands a client runs for itself', () => {
  it.each(['gh co 12', 'gh dash', 'wget -O /dev/null --use-askpass=/tmp/x.sh https://example.com/'])('refuses %j: an alias, an extension or a helper program is code gobby cannot see into', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeDefined();
  });

  it.each(['gh pr list', 'gh api repos/o/r', 'gh --version', 'gh help pr'])('lets %j through', (command) => {
    expect(refusal(command, '/srv/app', '/home/dev')).toBeUndefined();
  });
});
