// Test-scoped dependencies are never looked up for summaries; a compile-scoped one is asked
// for them once, and the miss is remembered: the second build makes no request at all.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 2, "two invocations logged, found ${builds.size()}")

def summaryRequests = { String build ->
    build.readLines().findAll { it =~ /Downloading from it-remote: \S+-racer-summaries\.json/ }
            .collect { it.replaceAll(/.*\//, '') }
}
def first = summaryRequests(builds[0])
// Maven 4's resolver may retry a transfer; what matters is which files were asked for.
check(first.unique() == ['compiledep-1.0-racer-summaries.json'],
        "the first build asks the remote repository for compiledep's summaries only, asked for: $first")
def second = summaryRequests(builds[1])
check(second.isEmpty(), "the second build asks the remote repository for no summaries, asked for: $second")
check(!log.contains('testdep-1.0-racer-summaries'), 'testdep (test scope) is never looked up')

def scope = new File(localRepositoryPath, 'dev/racer/it/scope')
check(new File(scope, 'testdep/1.0/testdep-1.0.jar').isFile(), 'the test dependency was resolved (surefire)')
check(new File(scope, 'compiledep/1.0/compiledep-1.0-racer-summaries.json.lastUpdated').isFile(),
        "compiledep's missing summaries are remembered in the local repository")
check(!new File(scope, 'testdep/1.0/testdep-1.0-racer-summaries.json.lastUpdated').exists(),
        'nothing is recorded for testdep')
builds.each {
    check(it =~ /racer \S+: 1 class, 3 methods analysed, 0 upstream classes from 0 summary files/,
            'each build analyses Total with no summaries')
    check(it.contains('racer: no races found in test-scope-lookup ('), 'no races')
}
return true
