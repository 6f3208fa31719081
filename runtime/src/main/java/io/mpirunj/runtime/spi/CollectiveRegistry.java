package io.mpirunj.runtime.spi;

import io.mpirunj.runtime.RuntimeConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;

/**
 * Every collective algorithm known to this rank, by operation and name, and the choice among them,
 * in Open MPI's order (its {@code coll/tuned} dynamic decision), with the model between rules and
 * defaults:
 * <ol>
 *   <li><b>forced</b>: {@code --coll bcast=opt-tree}, the {@value #PROP_NAME} system property, the
 *       {@value #ENV_NAME} variable or {@code Comm.withCollectives};</li>
 *   <li>the first matching rule of a <b>rules file</b> ({@code --coll-rules FILE}, {@link CollRules});</li>
 *   <li><b>{@code auto}</b> ({@code --coll bcast=auto}): the algorithm a {@link ModelSelector} predicts
 *       fastest under the job's model;</li>
 *   <li>the built-in <b>thresholds</b> ({@link CollectiveProvider#thresholds()});</li>
 *   <li>the <b>default</b>: the registered algorithm of highest priority.</li>
 * </ol>
 *
 * <p>Immutable after construction; thread-safe.
 */
public final class CollectiveRegistry {
    /** System property holding a forced-algorithm spec, e.g. {@code bcast=opt-tree,alltoall=pairwise}. */
    public static final String PROP_NAME = "mpirunj.coll";
    /** Environment variable holding a forced-algorithm spec (what the launcher sets for its ranks). */
    public static final String ENV_NAME = "MPIRUNJ_COLL";

    private final Map<CollectiveOp, Map<String, CollectiveAlgorithm>> byOp = new EnumMap<>(CollectiveOp.class);
    private final Map<CollectiveOp, Selection> defaults = new EnumMap<>(CollectiveOp.class);
    /** Per op, every algorithm in registration order: what {@code auto} chooses among (one list, reused per call). */
    private final Map<CollectiveOp, List<CollectiveAlgorithm>> candidates = new EnumMap<>(CollectiveOp.class);
    private final Map<CollectiveOp, Selection> forced = new EnumMap<>(CollectiveOp.class);
    private final Set<CollectiveOp> auto = EnumSet.noneOf(CollectiveOp.class);
    private final CollRules rules;
    private final CollRules thresholds;
    /** Thresholds {@link #forRankThreads} puts before {@link #thresholds}; none once applied. */
    private final CollRules threadThresholds;
    /** Thresholds {@link #forRankProcesses} puts before {@link #thresholds}; none once applied. */
    private final CollRules processThresholds;
    private final ModelSelector modelSelector;
    /** Per rule (file rules, then thresholds): its algorithm as a ready selection; null for "auto" rules. */
    private final Map<CollRules.Rule, Selection> ruleSelections = new java.util.IdentityHashMap<>();
    /**
     * {@code op=auto}'s answers, per op and size class ({@link CallShape#sizeSlot}): after a size class's first call
     * an auto call costs an array read and a compare, as a forced one costs a map read. Slots are written
     * racily; an {@link AutoChoice} is immutable (final fields), so a reader sees a whole one or none.
     */
    private final AutoChoice[][] autoChoices = new AutoChoice[CollectiveOp.values().length][CallShape.SIZE_SLOTS];

    /** {@link AutoChoice#bytes} when the choice holds for every size of its class. */
    private static final long ANY_SIZE_OF_CLASS = Long.MIN_VALUE;

    /**
     * What {@code auto} resolved for calls of {@code commSize}/{@code ranks} participants in one size class
     * under {@code config}: {@code bytes} is the one size it holds for when a threshold (which decides
     * near-ties and what runs when the model has no answer) changes inside the class, else
     * {@link #ANY_SIZE_OF_CLASS}.
     */
    private record AutoChoice(int commSize, int ranks, long bytes, RuntimeConfig config, Selection selection) {
        boolean fits(CallShape call, RuntimeConfig c) {
            return config == c && commSize == call.commSize() && ranks == call.ranks()
                    && (bytes == ANY_SIZE_OF_CLASS || bytes == call.bytes());
        }
    }

    /**
     * @param algorithms every available algorithm
     * @param forcedSpec forced choices ({@code op=name,...}), or null/empty for none
     * @throws IllegalArgumentException for a malformed spec, an unknown operation or algorithm, or a
     *     duplicate name; the message lists the valid choices
     */
    public CollectiveRegistry(List<? extends CollectiveAlgorithm> algorithms, String forcedSpec) {
        this(algorithms, forcedSpec, CollRules.NONE, CollRules.NONE, null);
    }

    /**
     * @param rules         a rules file's rules ({@link CollRules#NONE} for none); names are checked here
     * @param thresholds    built-in thresholds
     * @param modelSelector what {@code op=auto} asks, or null when none is available
     */
    public CollectiveRegistry(List<? extends CollectiveAlgorithm> algorithms, String forcedSpec, CollRules rules,
            CollRules thresholds, ModelSelector modelSelector) {
        this(algorithms, forcedSpec, rules, thresholds, CollRules.NONE, modelSelector);
    }

    /**
     * @param threadThresholds built-in thresholds for ranks that are threads of one JVM, applied by
     *     {@link #forRankThreads}
     */
    public CollectiveRegistry(List<? extends CollectiveAlgorithm> algorithms, String forcedSpec, CollRules rules,
            CollRules thresholds, CollRules threadThresholds, ModelSelector modelSelector) {
        this(algorithms, forcedSpec, rules, thresholds, threadThresholds, CollRules.NONE, modelSelector);
    }

    /**
     * @param processThresholds built-in thresholds for ranks that are processes talking over sockets,
     *     applied by {@link #forRankProcesses}
     */
    public CollectiveRegistry(List<? extends CollectiveAlgorithm> algorithms, String forcedSpec, CollRules rules,
            CollRules thresholds, CollRules threadThresholds, CollRules processThresholds,
            ModelSelector modelSelector) {
        for (CollectiveAlgorithm a : algorithms) {
            Map<String, CollectiveAlgorithm> names = byOp.computeIfAbsent(a.op(), k -> new LinkedHashMap<>());
            if (a.name().equals(CollRules.AUTO)) {
                throw new IllegalArgumentException("'" + CollRules.AUTO + "' is reserved for model-based selection: "
                        + a.getClass().getName() + " cannot use it as its name");
            }
            CollectiveAlgorithm old = names.putIfAbsent(a.name(), a);
            if (old != null && old.getClass() != a.getClass()) {
                throw new IllegalArgumentException("two " + a.op().cliName() + " algorithms named '" + a.name()
                        + "': " + old.getClass().getName() + " and " + a.getClass().getName());
            }
        }
        for (Map.Entry<CollectiveOp, Map<String, CollectiveAlgorithm>> e : byOp.entrySet()) {
            defaults.put(e.getKey(), new Selection(defaultOf(e.getValue().values()), Selection.Source.DEFAULT));
            candidates.put(e.getKey(), List.copyOf(e.getValue().values()));
        }
        this.rules = rules;
        this.thresholds = thresholds;
        this.threadThresholds = threadThresholds;
        this.processThresholds = processThresholds;
        this.modelSelector = modelSelector;
        prepareRules(rules, Selection.Source.RULES);
        prepareRules(thresholds, Selection.Source.THRESHOLD);
        prepareRules(threadThresholds, Selection.Source.THRESHOLD);
        prepareRules(processThresholds, Selection.Source.THRESHOLD);
        applyForced(forcedSpec);
    }

    /** The default among {@code algorithms} (of one op): the first of highest priority; null when empty. */
    private static CollectiveAlgorithm defaultOf(Iterable<? extends CollectiveAlgorithm> algorithms) {
        CollectiveAlgorithm best = null;
        for (CollectiveAlgorithm a : algorithms) {
            if (best == null || a.priority() > best.priority()) {
                best = a;
            }
        }
        return best;
    }

    /** A copy of {@code from}: the same algorithms, rules and choices. */
    private CollectiveRegistry(CollectiveRegistry from) {
        this(from, from.thresholds, from.threadThresholds, from.processThresholds);
    }

    /** A copy of {@code from} with other thresholds. */
    private CollectiveRegistry(CollectiveRegistry from, CollRules thresholds, CollRules threadThresholds,
            CollRules processThresholds) {
        for (Map.Entry<CollectiveOp, Map<String, CollectiveAlgorithm>> e : from.byOp.entrySet()) {
            byOp.put(e.getKey(), new LinkedHashMap<>(e.getValue()));
        }
        defaults.putAll(from.defaults);
        candidates.putAll(from.candidates);
        forced.putAll(from.forced);
        auto.addAll(from.auto);
        rules = from.rules;
        this.thresholds = thresholds;
        this.threadThresholds = threadThresholds;
        this.processThresholds = processThresholds;
        modelSelector = from.modelSelector;
        ruleSelections.putAll(from.ruleSelections);
    }

    /**
     * This registry for ranks that are threads of one JVM: the providers' thread
     * thresholds ({@link CollectiveProvider#threadThresholds}) go before the built-in ones.
     */
    public CollectiveRegistry forRankThreads() {
        return withFirst(threadThresholds, "rank threads");
    }

    /**
     * This registry for ranks that are processes talking over sockets: the providers' process
     * thresholds ({@link CollectiveProvider#processThresholds}) go before the built-in ones.
     */
    public CollectiveRegistry forRankProcesses() {
        return withFirst(processThresholds, "rank processes");
    }

    /** A copy whose thresholds are {@code first}, then the built-in ones; no placement's rules left to apply. */
    private CollectiveRegistry withFirst(CollRules first, String placement) {
        if (first.isEmpty()) {
            return this;
        }
        List<CollRules.Rule> merged = new ArrayList<>(first.rules());
        merged.addAll(thresholds.rules());
        return new CollectiveRegistry(this, new CollRules(merged, thresholds.source() + " (" + placement + ")"),
                CollRules.NONE, CollRules.NONE);
    }

    /** Checks each rule's algorithm (the error names the rule) and keeps its selection ready. */
    private void prepareRules(CollRules set, Selection.Source source) {
        for (CollRules.Rule r : set.rules()) {
            if (r.algorithm().equals(CollRules.AUTO)) {
                if (modelSelector == null) {
                    throw new IllegalArgumentException(set.source() + ": " + r.where() + ": \"auto\" needs a model "
                            + "selector (is mpirunj-collectives on the classpath?)");
                }
                ruleSelections.put(r, null);
                continue;
            }
            CollectiveAlgorithm a;
            try {
                a = lookupToRun(r.op(), r.algorithm());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(set.source() + ": " + r.where() + ": " + e.getMessage());
            }
            if (r.segmentBytes() > 0) {
                if (!a.traits().contains(AlgorithmTrait.SEGMENTED)) {
                    throw new IllegalArgumentException(set.source() + ": " + r.where() + ": segmentBytes="
                            + r.segmentBytes() + " but " + r.op().cliName() + " algorithm '" + a.name()
                            + "' is not segmented");
                }
                a = a.withSegmentBytes(r.segmentBytes());
            }
            ruleSelections.put(r, new Selection(a, source));
        }
    }

    private void applyForced(String spec) {
        for (Map.Entry<CollectiveOp, String> f : parseSpec(spec).entrySet()) {
            CollectiveOp op = f.getKey();
            if (f.getValue().equals(CollRules.AUTO)) {
                if (modelSelector == null) {
                    throw new IllegalArgumentException(op.cliName() + "=auto needs a model selector (is "
                            + "mpirunj-collectives on the classpath?)");
                }
                lookupAny(op);
                forced.remove(op);
                auto.add(op);
            } else {
                forced.put(op, new Selection(lookupToRun(op, f.getValue()), Selection.Source.FORCED));
                auto.remove(op);
            }
        }
    }

    /** The same algorithms and rules with {@code spec}'s choices forced on top of this registry's. */
    public CollectiveRegistry withForced(String spec) {
        CollectiveRegistry out = new CollectiveRegistry(this);
        out.applyForced(spec);
        return out;
    }

    /** The name chosen for {@code op} without a call's size (forced, else default), or null if none is registered. */
    public String chosenName(CollectiveOp op) {
        Selection s = forced.getOrDefault(op, defaults.get(op));
        if (s == null) {
            return null;
        }
        return auto.contains(op) ? CollRules.AUTO : s.algorithm().name();
    }

    /** The algorithms of every {@link CollectiveProvider} visible to {@code loader}. */
    public static List<CollectiveAlgorithm> discover(ClassLoader loader) {
        return collect(providers(loader), CollectiveProvider::algorithms);
    }

    /** The built-in thresholds of every {@link CollectiveProvider} visible to {@code loader}. */
    public static CollRules discoverThresholds(ClassLoader loader) {
        return thresholds(providers(loader));
    }

    /** The thread thresholds of every {@link CollectiveProvider} visible to {@code loader}. */
    public static CollRules discoverThreadThresholds(ClassLoader loader) {
        return threadThresholds(providers(loader));
    }

    /** The process thresholds of every {@link CollectiveProvider} visible to {@code loader}. */
    public static CollRules discoverProcessThresholds(ClassLoader loader) {
        return processThresholds(providers(loader));
    }

    private static List<CollectiveProvider> providers(ClassLoader loader) {
        List<CollectiveProvider> out = new ArrayList<>();
        ServiceLoader.load(CollectiveProvider.class, loader).forEach(out::add);
        return out;
    }

    private static <T> List<T> collect(List<CollectiveProvider> providers,
            Function<CollectiveProvider, List<? extends T>> part) {
        List<T> all = new ArrayList<>();
        for (CollectiveProvider p : providers) {
            all.addAll(part.apply(p));
        }
        return all;
    }

    private static CollRules thresholds(List<CollectiveProvider> providers) {
        return new CollRules(collect(providers, CollectiveProvider::thresholds), "built-in thresholds");
    }

    private static CollRules threadThresholds(List<CollectiveProvider> providers) {
        return new CollRules(collect(providers, CollectiveProvider::threadThresholds),
                "built-in thresholds for rank threads");
    }

    private static CollRules processThresholds(List<CollectiveProvider> providers) {
        return new CollRules(collect(providers, CollectiveProvider::processThresholds),
                "built-in thresholds for rank processes");
    }

    /** The first {@link ModelSelector} visible to {@code loader}, or null. */
    public static ModelSelector discoverModelSelector(ClassLoader loader) {
        Iterator<ModelSelector> it = ServiceLoader.load(ModelSelector.class, loader).iterator();
        return it.hasNext() ? it.next() : null;
    }

    /**
     * Every algorithm, threshold and model selector visible to {@code loader}, with {@code forced} and the
     * rules file {@code rulesFile} (null for none).
     *
     * @throws IllegalArgumentException one line, for a bad spec or rules file
     */
    public static CollectiveRegistry of(String forced, String rulesFile, ClassLoader loader) {
        CollRules rules = rulesFile == null ? CollRules.NONE : CollRules.load(Path.of(rulesFile));
        List<CollectiveProvider> providers = providers(loader); // once: each load scans the class path anew
        return new CollectiveRegistry(collect(providers, CollectiveProvider::algorithms), forced, rules,
                thresholds(providers), threadThresholds(providers), processThresholds(providers),
                discoverModelSelector(loader));
    }

    /** A registry of every algorithm visible to {@code loader}, forced and ruled as {@code config} says. */
    public static CollectiveRegistry of(RuntimeConfig config, ClassLoader loader) {
        return of(config.forcedCollectives(), config.collRulesFile(), loader);
    }

    /** A registry of every discoverable algorithm, forced as the property or environment says. */
    public static CollectiveRegistry fromEnvironment() {
        return of(RuntimeConfig.from(System.getenv()), CollectiveRegistry.class.getClassLoader());
    }

    /**
     * Parses {@code op=name[,op=name...]} into a map, checking only the syntax and the operation
     * names. Null or blank gives an empty map.
     */
    public static Map<CollectiveOp, String> parseSpec(String spec) {
        Map<CollectiveOp, String> out = new EnumMap<>(CollectiveOp.class);
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String part : spec.split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                throw new IllegalArgumentException("bad collective spec '" + p + "' in '" + spec
                        + "' (expected: op=algorithm[,op=algorithm...], e.g. bcast=binomial)");
            }
            CollectiveOp op = CollectiveOp.fromCliName(p.substring(0, eq).trim());
            if (out.put(op, p.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException(op.cliName() + " given twice in '" + spec + "' (expected: one "
                        + "algorithm per operation)");
            }
        }
        return out;
    }

    /**
     * {@link #lookup}, for an algorithm to run: a family ({@link CollectiveAlgorithm.Parameterized}) named without its
     * argument is refused here, where {@code --coll} and rules files are checked, rather than at the ranks' first call.
     */
    private CollectiveAlgorithm lookupToRun(CollectiveOp op, String name) {
        CollectiveAlgorithm a = lookup(op, name);
        if (a instanceof CollectiveAlgorithm.Parameterized && name.indexOf(':') < 0) {
            throw new IllegalArgumentException(op.cliName() + " algorithm '" + name + "' needs an argument after a "
                    + "colon: " + a.description());
        }
        return a;
    }

    /** The algorithm registered for {@code op} under {@code name}; the error lists the valid names. */
    public CollectiveAlgorithm lookup(CollectiveOp op, String name) {
        Map<String, CollectiveAlgorithm> names = byOp.getOrDefault(op, Collections.emptyMap());
        CollectiveAlgorithm a = names.get(name);
        int colon = name.indexOf(':');
        if (a == null && colon > 0 && names.get(name.substring(0, colon)) instanceof CollectiveAlgorithm.Parameterized f) {
            if (name.substring(colon + 1).isBlank()) { // bcast=file: read the working directory ("Is a directory")
                throw new IllegalArgumentException(op.cliName() + " algorithm '" + name + "' needs an argument after "
                        + "its colon: " + f.description());
            }
            return f.withArgument(name.substring(colon + 1)); // e.g. bcast=file:FILE.json
        }
        if (a == null) {
            throw new IllegalArgumentException("unknown " + op.cliName() + " algorithm '" + name + "' (expected one of: "
                    + (names.isEmpty() ? "none registered" : String.join(", ", names.keySet())
                    + (modelSelector == null ? "" : ", " + CollRules.AUTO)) + ")");
        }
        return a;
    }

    private void lookupAny(CollectiveOp op) {
        if (!defaults.containsKey(op)) {
            throw new IllegalStateException("no " + op.cliName()
                    + " algorithm registered (is mpirunj-collectives on the classpath?)");
        }
    }

    /** The algorithm chosen for {@code op} without a call's size (forced, else default), cast to its interface. */
    public <T extends CollectiveAlgorithm> T select(CollectiveOp op, Class<T> type) {
        Selection s = forced.get(op);
        if (s == null) {
            lookupAny(op);
            s = defaults.get(op);
        }
        return type.cast(s.algorithm());
    }

    /**
     * The choice for one call, in this registry's order (see the class comment). Every rank of the call
     * gets the same answer: the inputs are the same on all of them.
     */
    public Selection select(CollectiveOp op, CallShape call, RuntimeConfig config) {
        Selection s = forced.get(op);
        if (s != null) {
            return s;
        }
        lookupAny(op);
        CollRules.Rule r = rules.match(op, call.commSize(), call.bytes());
        if (r != null) {
            s = ruleSelections.get(r);
            return s != null ? s : predicted(op, call, config, Selection.Source.RULES);
        }
        return auto.contains(op) ? auto(op, call, config) : withoutModel(op, call);
    }

    /**
     * {@code auto}'s choice (or, when the model has none, what runs without it), resolved once per op, size
     * class, participant count and configuration: the simulation (once per JVM, {@link ModelSelector}'s
     * cache) and the fallback's threshold lookup are not paid per call. No ranks talk: every rank resolves
     * the same answer from the same inputs.
     */
    private Selection auto(CollectiveOp op, CallShape call, RuntimeConfig config) {
        AutoChoice[] bySize = autoChoices[op.ordinal()];
        int slot = CallShape.sizeSlot(call.bytes());
        AutoChoice c = bySize[slot];
        if (c != null && c.fits(call, config)) {
            return c.selection();
        }
        Selection s = predicted(op, call, config, Selection.Source.AUTO);
        if (s == null) {
            s = withoutModel(op, call);
        }
        long sizeClass = CallShape.sizeClass(call.bytes());
        long lowest = sizeClass <= 1 ? sizeClass : sizeClass / 2 + 1;
        boolean wholeClass = thresholds.sameMatchOver(op, lowest, sizeClass);
        bySize[slot] = new AutoChoice(call.commSize(), call.ranks(), wholeClass ? ANY_SIZE_OF_CLASS : call.bytes(),
                config, s);
        return s;
    }

    /** The choice after rules and {@code auto}: a built-in threshold's algorithm, else the default. */
    private Selection withoutModel(CollectiveOp op, CallShape call) {
        CollRules.Rule r = thresholds.match(op, call.commSize(), call.bytes());
        if (r != null && ruleSelections.get(r) != null) {
            return ruleSelections.get(r);
        }
        return defaults.get(op);
    }

    /** {@code auto}'s choice; null when the selector has none (no candidate it can evaluate). */
    private Selection predicted(CollectiveOp op, CallShape call, RuntimeConfig config, Selection.Source from) {
        ModelSelector.Prediction p = modelSelector.choose(op, candidates.get(op),
                withoutModel(op, call).algorithm(), call, config);
        if (p == null) {
            return from == Selection.Source.RULES ? defaults.get(op) : null;
        }
        return new Selection(lookup(op, p.algorithm()), Selection.Source.AUTO, p.predicted(), p.unit());
    }

    /**
     * What {@code auto} may try live for a call it chose ({@link Selection.Source#AUTO}): the model's pick first,
     * then the candidates the model cannot rule out ({@link ModelSelector#shortlist}); one entry when there is
     * nothing to try. Every rank gets the same list from the same inputs.
     */
    public List<Selection> shortlist(CollectiveOp op, CallShape call, RuntimeConfig config) {
        List<Selection> out = new ArrayList<>();
        for (ModelSelector.Prediction p : modelSelector.shortlist(op, candidates.get(op),
                withoutModel(op, call).algorithm(), call, config)) {
            out.add(new Selection(lookup(op, p.algorithm()), Selection.Source.AUTO, p.predicted(), p.unit()));
        }
        return out;
    }

    /** True when {@code op} is set to {@code auto}. */
    public boolean isAuto(CollectiveOp op) {
        return auto.contains(op);
    }

    /** The rules file's rules ({@link CollRules#NONE} without one). */
    public CollRules rules() {
        return rules;
    }

    /** The names registered for {@code op}, in registration order. */
    public List<String> names(CollectiveOp op) {
        return new ArrayList<>(byOp.getOrDefault(op, Collections.emptyMap()).keySet());
    }

    /** Every algorithm, grouped by operation; the chosen one of each first. */
    public List<CollectiveAlgorithm> all(CollectiveOp op) {
        List<CollectiveAlgorithm> out = new ArrayList<>(byOp.getOrDefault(op, Collections.emptyMap()).values());
        Selection c = forced.getOrDefault(op, defaults.get(op));
        if (c != null && !auto.contains(op)) {
            out.remove(c.algorithm());
            out.add(0, c.algorithm());
        }
        return out;
    }

    /**
     * A table for {@code --list-algorithms}: op, name, a mark ({@code *} chosen without a size, {@code +}
     * the default under {@code auto}), traits, description.
     */
    public String describe() {
        return describe(CollectiveAlgorithm::traits);
    }

    /** As {@link #describe()}, with each algorithm's traits as {@code traits} says (e.g. from a catalogue). */
    public String describe(java.util.function.Function<CollectiveAlgorithm, Set<AlgorithmTrait>> traitsOf) {
        StringBuilder sb = new StringBuilder();
        int opWidth = 0; // the longest operation's name (reduce_scatter_block), so the columns line up
        for (CollectiveOp op : CollectiveOp.values()) {
            opWidth = Math.max(opWidth, op.cliName().length());
        }
        String row = "%-" + opWidth + "s %-22s %s %s%s%n";
        for (CollectiveOp op : CollectiveOp.values()) {
            Selection c = forced.getOrDefault(op, defaults.get(op));
            for (CollectiveAlgorithm a : all(op)) {
                String mark = c != null && a == c.algorithm() ? (auto.contains(op) ? "+" : "*") : " ";
                String traits = AlgorithmTrait.labels(traitsOf.apply(a));
                sb.append(String.format(row, op.cliName(), a.name(), mark, a.description(),
                        traits.isEmpty() ? "" : " [" + traits + "]"));
            }
            if (modelSelector != null && defaults.containsKey(op)) {
                sb.append(String.format(row, op.cliName(), CollRules.AUTO,
                        auto.contains(op) ? "*" : " ", "the fastest schedule-built algorithm under --model, "
                                + "by simulation (cached per size class and group; within 10 %: what runs without auto, or with "
                                + "cpus=C the least mean time in the call), then the fastest measured of those within 50 % "
                                + "(--coll-tune)", ""));
            }
        }
        return sb.toString();
    }
}
