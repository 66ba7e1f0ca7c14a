// Races reported as warnings, build passes: racer.failOnViolation=false, racer.maxAllowedViolations=1, then racer.formats=sarif.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 3, "three invocations logged, found ${builds.size()}")
check(builds[0] =~ /\[WARNING\] racer: 1 race found in race-not-fatal \(.*\); report: file:\S+ \(not failing: racer\.failOnViolation=false\)/,
        'the summary line is a warning that names the report')
check(builds[1] =~ /\[WARNING\] racer: 1 race found in race-not-fatal \(.*\); report: file:\S+ \(within racer\.maxAllowedViolations=1\)/,
        'a race within the threshold is a warning')
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
