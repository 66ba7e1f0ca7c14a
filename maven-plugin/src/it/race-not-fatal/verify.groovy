// Races reported as warnings, build passes: racer.failOnViolation=false, racer.maxAllowedViolations=1,
// racer.differentLocks=true (TwoLocks' two writes under two locks are races too), then racer.formats=sarif.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 4, "four invocations logged, found ${builds.size()}")
check(builds[0] =~ /\[WARNING\] racer: 1 race found in race-not-fatal \(.*\); report: file:\S+ \(not failing: racer\.failOnViolation=false\)/,
        'the summary line is a warning that names the report')
check(builds[1] =~ /\[WARNING\] racer: 1 race found in race-not-fatal \(.*\); report: file:\S+ \(within racer\.maxAllowedViolations=1\)/,
        'a race within the threshold is a warning')
check(builds[2] =~ /\[WARNING\] racer: 3 races found in race-not-fatal \(.*\); report: file:\S+ \(not failing: racer\.failOnViolation=false\)/,
        'with racer.differentLocks the writes under two different locks are races')
check(builds[2] =~ /\[WARNING\] it\/racy\/TwoLocks\.java:9: error: THREAD_SAFETY_VIOLATION/, 'the write under the monitor is reported')
[0, 1, 3].each { i -> check(!builds[i].contains('TwoLocks'), 'without racer.differentLocks two different locks protect') }
builds.each { build ->
    check(build =~ /\[WARNING\] it\/racy\/Counter\.java:12: error: THREAD_SAFETY_VIOLATION/, 'the race is printed as a warning')
    check(!build.contains('[ERROR]'), 'no error is logged')
}
// The last invocation asked for SARIF only: the other reports of earlier runs are gone.
['summaries.json', 'racer.sarif'].each {
    check(new File(basedir, "target/racer/$it").isFile(), "target/racer/$it is written")
}
['racer.json', 'racer.html', 'racer.txt'].each {
    check(!new File(basedir, "target/racer/$it").exists(), "target/racer/$it is removed when its format is off")
}
return true
