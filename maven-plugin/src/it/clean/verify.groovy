// Thread-safe code passes; reports and summaries are written.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
check(log.contains('racer: no races found in clean ('), 'the summary line says no races')
check(log =~ /racer \S+: [1-9]\d* class(es)?, \d+ methods? analysed, .* engine \d+ ms, native call \d+ ms/,
        'the statistics line counts the classes and gives the timings')
def out = new File(basedir, 'target/racer')
['summaries.json', 'racer.json', 'racer.sarif', 'racer.html', 'racer.txt'].each {
    check(new File(out, it).isFile(), "target/racer/$it is written")
}
def json = new groovy.json.JsonSlurper().parse(new File(out, 'racer.json'))
def issues = json instanceof Map ? json.issues : json
check(issues.isEmpty(), "racer.json has no issues: $issues")
def sarif = new groovy.json.JsonSlurper().parse(new File(out, 'racer.sarif'))
check(sarif.version == '2.1.0', 'racer.sarif is SARIF 2.1.0')
return true
