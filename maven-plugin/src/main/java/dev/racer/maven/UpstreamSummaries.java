package dev.racer.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.LocalArtifactRequest;
import org.eclipse.aether.repository.LocalArtifactResult;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.ResolutionErrorPolicy;
import org.eclipse.aether.resolution.ResolutionErrorPolicyRequest;

/**
 * Finds the summary files of a project's dependencies.
 *
 * <p>A dependency built in the same reactor contributes the summaries its own {@code check}
 * execution wrote (recorded in the module's context, or found at its default location). A
 * dependency resolved from a repository contributes its attached artifact with classifier
 * {@value #CLASSIFIER} and type {@value #TYPE}, if one was published; its absence is normal.
 *
 * <p>Only {@code compile} and {@code runtime} dependencies can be upstream code of the module's
 * classes: {@code test} dependencies are not (they are in {@link MavenProject#getArtifacts()}
 * whenever an earlier mojo such as surefire resolved the test scope), and a {@code provided}
 * artifact is an API whose implementation comes from elsewhere at run time.
 *
 * <p>A repository lookup asks the remote repositories at most once per artifact: the local
 * repository is consulted first, and a remote miss is cached there by the resolver and not
 * retried (until {@code mvn -U}), so routine builds make no remote request for summaries.
 */
final class UpstreamSummaries {

    /** Classifier of the attached summaries artifact. */
    static final String CLASSIFIER = "racer-summaries";
    /** Type (extension) of the attached summaries artifact. */
    static final String TYPE = "json";
    /** Key under which a module's summaries file is kept in its {@link MavenProject} context. */
    static final String CONTEXT_KEY = "dev.racer.summaries";
    /** Name of the summaries file in the output directory. */
    static final String FILE_NAME = "summaries.json";

    private final MavenSession session;
    private final MavenProject project;
    private final RepositorySystem repositorySystem;
    private final Log log;

    UpstreamSummaries(MavenSession session, MavenProject project, RepositorySystem repositorySystem, Log log) {
        this.session = session;
        this.project = project;
        this.repositorySystem = repositorySystem;
        this.log = log;
    }

    /** The summary files of every resolved dependency that has one, in dependency order. */
    List<File> find(boolean fromRepositories) {
        Set<File> found = new LinkedHashSet<>();
        for (Artifact dependency : project.getArtifacts()) {
            if (!dependency.getArtifactHandler().isAddedToClasspath() || !isUpstreamScope(dependency.getScope())) {
                continue;
            }
            MavenProject module = reactorModule(dependency);
            File summaries;
            if (module != null) {
                summaries = fromReactor(module);
            } else if (fromRepositories) {
                summaries = fromRepository(dependency);
            } else {
                summaries = null;
            }
            if (summaries != null) {
                found.add(summaries);
            }
        }
        return new ArrayList<>(found);
    }

    private static boolean isUpstreamScope(String scope) {
        return scope == null || Artifact.SCOPE_COMPILE.equals(scope) || Artifact.SCOPE_RUNTIME.equals(scope);
    }

    private MavenProject reactorModule(Artifact dependency) {
        List<MavenProject> modules = session.getProjects();
        if (modules == null) {
            return null;
        }
        for (MavenProject module : modules) {
            if (module.getGroupId().equals(dependency.getGroupId())
                    && module.getArtifactId().equals(dependency.getArtifactId())
                    && module.getVersion().equals(dependency.getBaseVersion())) {
                return module;
            }
        }
        return null;
    }

    private File fromReactor(MavenProject module) {
        Object recorded = module.getContextValue(CONTEXT_KEY);
        File summaries = recorded instanceof File
                ? (File) recorded
                : new File(new File(module.getBuild().getDirectory(), "racer"), FILE_NAME);
        if (summaries.isFile()) {
            log.debug("racer: summaries of reactor module " + module.getArtifactId() + ": " + summaries);
            return summaries;
        }
        log.debug("racer: reactor module " + module.getArtifactId() + " has no summaries (" + summaries
                + " does not exist; is racer:check bound in that module?)");
        return null;
    }

    private File fromRepository(Artifact dependency) {
        DefaultArtifact wanted = new DefaultArtifact(dependency.getGroupId(), dependency.getArtifactId(),
                CLASSIFIER, TYPE, dependency.getBaseVersion());
        List<RemoteRepository> remotes = project.getRemoteProjectRepositories();
        RepositorySystemSession repositorySession = session.getRepositorySession();
        LocalArtifactResult local = repositorySession.getLocalRepositoryManager()
                .find(repositorySession, new LocalArtifactRequest(wanted, remotes, null));
        if (local.getFile() != null && local.getFile().isFile()) {
            log.debug("racer: summaries of " + dependency.getId() + " (local repository): " + local.getFile());
            return local.getFile();
        }
        ArtifactRequest request = new ArtifactRequest(wanted, remotes, null);
        try {
            ArtifactResult result = repositorySystem.resolveArtifact(missesCached(repositorySession), request);
            File file = result.getArtifact() == null ? null : result.getArtifact().getFile();
            if (file != null && file.isFile()) {
                log.debug("racer: summaries of " + dependency.getId() + ": " + file);
                return file;
            }
        } catch (ArtifactResolutionException e) {
            log.debug("racer: " + dependency.getId() + " publishes no " + CLASSIFIER + " artifact");
        }
        return null;
    }

    /**
     * The build's session, changed so that a summaries artifact a remote repository did not have
     * is remembered in the local repository and not asked for again; {@code -U} (update policy
     * "always") still re-checks.
     */
    private RepositorySystemSession missesCached(RepositorySystemSession build) {
        if (RepositoryPolicy.UPDATE_POLICY_ALWAYS.equals(build.getUpdatePolicy())) {
            return build;
        }
        DefaultRepositorySystemSession once = new DefaultRepositorySystemSession(build);
        once.setUpdatePolicy(RepositoryPolicy.UPDATE_POLICY_NEVER);
        once.setResolutionErrorPolicy(REMEMBER_MISSES);
        return once;
    }

    /** Remembers "not found" (resolver-util's SimpleResolutionErrorPolicy is not visible to plugins). */
    private static final ResolutionErrorPolicy REMEMBER_MISSES = new ResolutionErrorPolicy() {
        @Override
        public int getArtifactPolicy(RepositorySystemSession session,
                ResolutionErrorPolicyRequest<org.eclipse.aether.artifact.Artifact> request) {
            return ResolutionErrorPolicy.CACHE_NOT_FOUND;
        }

        @Override
        public int getMetadataPolicy(RepositorySystemSession session,
                ResolutionErrorPolicyRequest<org.eclipse.aether.metadata.Metadata> request) {
            return ResolutionErrorPolicy.CACHE_NOT_FOUND;
        }
    };
}
