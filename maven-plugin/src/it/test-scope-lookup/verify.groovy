// Test-scoped dependencies are never looked up for summaries; a compile-scoped one is asked
// for them once, and the miss is remembered: the second build makes no request at all.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
// A build is the part of the log from "Scanning for projects" on in which racer ran (the
// pre-build lines name paths, which may contain "racer" themselves).
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it =~ /(?m)^\[INFO\] racer \S+: \d+ class/ }
check(builds.size() == 2, "two invocations logged, found ${builds.size()}")

def summaryRequests = { String build ->
    build.readLines().findAll { it =~ /Downloading from it-remote: \S+-racer-summaries\.json/ }
            .collect { it.replaceAll(/.*\//, '') }
}
// Maven 4 reports transfers through an asynchronous listener that may not print every lookup, so
// the first build's request is proven by the resolver's own record below; the log must at least
// not show other files asked for.
def first = summaryRequests(builds[0])
check(first.every { it == 'compiledep-1.0-racer-summaries.json' },
        "the first build asks the remote repository for compiledep's summaries only, asked for: $first")
def second = summaryRequests(builds[1])
check(second.isEmpty(), "the second build asks the remote repository for no summaries, asked for: $second")
check(!log.contains('testdep-1.0-racer-summaries'), 'testdep (test scope) is never looked up')

def scope = new File(localRepositoryPath, 'dev/racer/it/scope')
check(new File(scope, 'testdep/1.0/testdep-1.0.jar').isFile(), 'the test dependency was resolved (surefire)')
def remembered = new File(scope, 'compiledep/1.0/compiledep-1.0-racer-summaries.json.lastUpdated')
check(remembered.isFile(), "compiledep's missing summaries are remembered in the local repository")
// The resolver records each repository it asked; the file:// remote must be one of them.
def asked = remembered.readLines().findAll { it =~ /^[^#].*\/remote\/\.lastUpdated=/ }
check(asked.size() == 1, "the remote repository was asked for compiledep's summaries, record: ${remembered.readLines()}")
check(!new File(scope, 'testdep/1.0/testdep-1.0-racer-summaries.json.lastUpdated').exists(),
        'nothing is recorded for testdep')
builds.each {
    check(it =~ /racer \S+: 1 class, 3 methods analysed, 0 upstream classes from 0 summary files/,
            'each build analyses Total with no summaries')
    check(it.contains('racer: no races found in test-scope-lookup ('), 'no races')
}
return true
