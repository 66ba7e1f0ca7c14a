// Every invocation (whole reactor; -pl app -am; -T 2; lib without one extension) finds the race in
// app through lib's summaries; only the last warns that lib's were made in another mode.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 4, "four invocations logged, found ${builds.size()}")
def mixed = 'summaries made in default without thread-handoffs mode, but this run is in default mode'
builds.eachWithIndex { build, i ->
    def n = i + 1
    check(build.contains('racer: skipped, nothing to analyse in a module with pom packaging'), "#$n: the aggregator is skipped")
    check(build =~ /racer: no races found in lib \(/, "#$n: lib alone has no race")
    check(build =~ /@ app ---\n\[INFO\] racer \S+: \d+ class(es)?, \d+ methods? analysed, [1-9]\d* upstream class(es)? from 1 summary file/,
            "#$n: app reads lib's summaries")
    check(build =~ /racer found 1 race in app; see the report at file:/, "#$n: the race in app fails the build")
    def warnings = build.readLines().findAll { it.startsWith('[WARNING]') && it.contains(mixed) }
    check(warnings.size() == (n == 4 ? 1 : 0), "#$n: ${n == 4 ? 'one warning' : 'no warning'} of lib's mode: $warnings")
}
check(new File(basedir, 'lib/target/racer/summaries.json').isFile(), 'lib wrote its summaries')
def json = new groovy.json.JsonSlurper().parse(new File(basedir, 'app/target/racer/racer.json'))
def issues = json instanceof Map ? json.issues : json
check(issues.size() == 1, "one issue in app, got ${issues.size()}")
check(issues[0].class == 'it.app.Holder' && issues[0].method == 'unlocked' && issues[0].access_path == 'this.box.value',
        "the issue is Holder.unlocked on this.box.value: ${issues[0]}")
return true
