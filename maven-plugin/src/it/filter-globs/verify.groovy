// Globs in racer.ignoreClasses (`*` within a package, `**` across) and a filter file choose the races.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 3, "three invocations logged, found ${builds.size()}")
def reported = { String build ->
    build.readLines().findAll { it =~ /^\[ERROR\] \S+\.java:\d+: error: / }
            .collect { it.replaceAll(/^\[ERROR\] (\S+)\.java:.*/, '$1').replace('/', '.') }.sort()
}
check(reported(builds[0]) == ['it.app.Cache', 'it.app.Session', 'it.gen.deep.Lexer'],
        "it.gen.* ignores it.gen.Parser only: ${reported(builds[0])}")
check(builds[0] =~ /racer found 3 races in filter-globs; see the report/, 'three races fail the first build')
check(reported(builds[1]) == ['it.app.Session'], "it.gen.** and the filter file leave Session: ${reported(builds[1])}")
check(builds[1] =~ /racer found 1 race in filter-globs; see the report/, 'one race fails the second build')
def json = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/racer/racer.json'))
check(json.issues.collect { it.class } == ['it.app.Session'], "racer.json of the second build: ${json.issues.collect { it.class }}")
def missing = new File(basedir, 'missing-filter.json')
check(builds[2].contains("[ERROR] Failed to execute goal dev.racer:racer-maven-plugin:${builds[2].find(/racer-maven-plugin:([^:]+):check/) { m, v -> v }}:check (default) on project filter-globs: racer: the filter file ${missing.path} does not exist (racer.filter)"),
        'a missing filter file is a one-line error naming it')
return true
