// @SuppressRace and @SuppressLint on a method, a class and a field suppress their races; the two
// annotations that name something else do not, and those two races alone fail the build.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
check(log =~ /\[ERROR\] Failed to execute goal dev\.racer:racer-maven-plugin:[^:]+:check .*: racer found 2 new races in suppress-race \(0 baselined, 6 suppressed\); see the report at file:\S+racer\.html/,
        'the build fails on the two races that are not suppressed')
check(log.contains('[ERROR] racer: 8 issues: 2 new, 0 baselined, 6 suppressed'), 'the counts line')
check(log.contains('[ERROR] it/supp/WrongKind.java:15: error: THREAD_SAFETY_VIOLATION'), 'WrongKind is printed in full')
check(log.contains('[ERROR] it/supp/LintOther.java:15: error: THREAD_SAFETY_VIOLATION'), 'LintOther is printed in full')
check(!(log =~ /(Race|Lint)(Method|Class|Field)\.java:\d+: error:/), 'suppressed races are not printed in full')

def json = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/racer/racer.json'))
def byClass = json.issues.collectEntries { [(it.class - 'it.supp.'): it.suppressed] }
check(byClass.keySet().sort() == ['LintClass', 'LintField', 'LintMethod', 'LintOther', 'RaceClass', 'RaceField', 'RaceMethod', 'WrongKind'],
        "one race per class: ${byClass.keySet().sort()}")
def expected = [
    RaceMethod: [annotation: 'SuppressRace', value: 'racer', reason: 'a stale count is fine for the status page'],
    RaceClass : [annotation: 'SuppressRace', value: 'THREAD_SAFETY_VIOLATION', reason: 'only one thread calls get()'],
    RaceField : [annotation: 'SuppressRace', value: 'racer', reason: null],
    LintMethod: [annotation: 'SuppressLint', value: 'THREAD_SAFETY_VIOLATION', reason: null],
    LintClass : [annotation: 'SuppressLint', value: 'all', reason: null],
    LintField : [annotation: 'SuppressLint', value: 'racer', reason: null],
    WrongKind : null,
    LintOther : null,
]
expected.each { cls, suppression ->
    check(byClass[cls] == suppression, "$cls: suppressed ${byClass[cls]}, expected $suppression")
}
def sarif = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/racer/racer.sarif'))
def inSource = sarif.runs[0].results.findAll { it.suppressions?.any { s -> s.kind == 'inSource' } }
check(inSource.size() == 6, "six SARIF results suppressed in source, found ${inSource.size()}")
return true
