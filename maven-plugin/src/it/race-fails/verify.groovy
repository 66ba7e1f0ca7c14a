// A racy class fails verify with the count and the report's location; every report is written.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def out = new File(basedir, 'target/racer')

check(log =~ /\[ERROR\] Failed to execute goal dev\.racer:racer-maven-plugin:[^:]+:check .*: racer found 1 race in race-fails; see the report at file:\S+\/target\/racer\/racer\.html/,
        'the failure message gives the count and the HTML report')
check(log =~ /\[ERROR\] it\/racy\/Counter\.java:12: error: THREAD_SAFETY_VIOLATION\n\[ERROR\]   Read\/Write race\. Non-private method `Counter\.get\(\)` reads without synchronization from `this\.count`/,
        'the race is printed on the console')
['summaries.json', 'racer.json', 'racer.sarif', 'racer.html', 'racer.txt'].each {
    check(new File(out, it).isFile(), "target/racer/$it is written")
}
def json = new groovy.json.JsonSlurper().parse(new File(out, 'racer.json'))
def issues = json instanceof Map ? json.issues : json
check(issues.size() == 1, "one issue in racer.json, got ${issues.size()}")
check(issues[0].class == 'it.racy.Counter' && issues[0].method == 'get' && issues[0].access_path == 'this.count',
        "the issue is Counter.get on this.count: ${issues[0]}")
return true
