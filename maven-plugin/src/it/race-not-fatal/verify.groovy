// With racer.failOnViolation=false the race is reported as a warning and the build passes.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
check(log =~ /\[WARNING\] racer: 1 race found in race-not-fatal \(.*\); report: file:\S+ \(not failing: racer\.failOnViolation=false\)/,
        'the summary line is a warning that names the report')
check(log =~ /\[WARNING\] \S*Counter\.java:\d+: THREAD_SAFETY_VIOLATION/, 'the race is printed as a warning')
check(!log.contains('[ERROR]'), 'no error is logged')
['summaries.json', 'racer.json', 'racer.sarif', 'racer.html', 'racer.txt'].each {
    check(new File(basedir, "target/racer/$it").isFile(), "target/racer/$it is written")
}
return true
