// lib is installed with its summaries attached; app, built alone, resolves them from the repository.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 3, "three invocations logged, found ${builds.size()}")

def installed = new File(localRepositoryPath, 'dev/racer/it/installed-dependency/lib/1.0/lib-1.0-racer-summaries.json')
check(installed.isFile(), "mvn install put $installed in the local repository")
check(builds[0] =~ /Installing \S+lib\/target\/racer\/summaries\.json to \S+lib-1\.0-racer-summaries\.json/,
        'the summaries are installed as an attached artifact')

def app = builds[1]
check(!app.contains('Building lib'), 'the second invocation builds app alone')
check(app =~ /racer \S+: \d+ class(es)?, \d+ methods? analysed, [1-9]\d* upstream class(es)? from 1 summary file/,
        "app reads lib's installed summaries")
check(app =~ /racer found 1 race in app; see the report at file:/, 'the race in app fails the build')

def control = builds[2]
check(control =~ /racer \S+: .* 0 upstream classes from 0 summary files/, 'racer.dependencySummaries=false reads none')
check(control.contains('racer: no races found in app ('), 'without the summaries the race is not visible')
return true
