// lib is installed with its summaries attached; app, built alone, resolves them from the repository.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def installed = new File(localRepositoryPath, 'dev/racer/it/installed-dependency/lib/1.0/lib-1.0-racer-summaries.json')
check(installed.isFile(), "mvn install put $installed in the local repository")
check(log =~ /Installing \S+lib\/target\/racer\/summaries\.json to \S+lib-1\.0-racer-summaries\.json/,
        'the summaries are installed as an attached artifact')
def app = log.substring(log.lastIndexOf('Scanning for projects'))
check(!app.contains('Building lib'), 'the second invocation builds app alone')
check(app =~ /racer \S+: \d+ classes, \d+ methods analysed, [1-9]\d* upstream classes from 1 summary file/,
        "app reads lib's installed summaries")
check(app =~ /racer found 1 race in app; see the report at file:/, 'the race in app fails the build')
return true
