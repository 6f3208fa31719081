package io.mpirunj.fabric.wormhole;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelFile;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.topology.Topology;
import java.util.regex.Pattern;

/**
 * The one factory the command line uses to build a fabric network:
 * <pre>
 *   --fabric mesh:16x16 --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3   flit level, contention delays
 *   --fabric mesh:6x6   --fabric-params hold=20,end=55                   cost-model timing, contention reported
 * </pre>
 * Parameters with a wormhole key ({@code ss=}, {@code sd=}, {@code cd=}, {@code rs=}, {@code rd=}, {@code flit=}) are
 * {@link WormholeParams}; a cost model spec ({@code hold=..}, {@code logp:..}, a model file) is a {@link ModelSpec}.
 * Bad input fails with a one-line {@link IllegalArgumentException}; text that is neither names both forms
 * ({@link #PARAMS_FORM}).
 */
public final class Fabric {

    /**
     * What {@code --fabric-params} takes, as its help and its errors say it (no word longer than a help column:
     * {@link ModelSpec#PARAMETERIZED_FORM} in full is, and the help of --model gives it).
     */
    public static final String PARAMS_FORM = "flit level " + WormholeParams.FORM + ", or a cost model as --model: "
            + Fabric.MODEL_PARAMS_FORM + " or " + ModelSpec.LOGP_FORM;
    /** The cost model form of {@link #PARAMS_FORM}, in short (the help of --model gives it in full). */
    public static final String MODEL_PARAMS_FORM = "hold=A[+Bm],end=C[+Dm][,...]";

    private static final Pattern FLIT_KEY = Pattern.compile("(?i)(?:^|,)\\s*(?:ss|sd|cd|rs|rd|flit)\\s*=");
    private static final Pattern MODEL = Pattern.compile("(?i)\\s*(?:logp:|pairs:).*|(?:.*,)?\\s*(?:hold|end)\\s*=.*");

    private Fabric() {
    }

    /** True when {@code params} is a wormhole spec (a key such as {@code ss=}) rather than a cost model spec. */
    public static boolean isFlitParams(String params) {
        return params != null && FLIT_KEY.matcher(params).find();
    }

    /** {@code params} as a cost model; text that is no cost model at all is named with {@link #PARAMS_FORM}. */
    private static CostModel model(String params) {
        try {
            return ModelSpec.parse(params);
        } catch (IllegalArgumentException e) {
            if (params == null || MODEL.matcher(params).matches() || ModelFile.isModelFile(params.trim())) {
                throw e; // a cost model with a mistake: its message names it
            }
            throw new IllegalArgumentException("fabric params '" + params + "' are neither wormhole parameters nor a"
                    + " cost model (expected: " + PARAMS_FORM + ")");
        }
    }

    /**
     * @param topologySpec e.g. {@code mesh:16x16} (see {@link Topology#parse})
     * @param params       {@code ss=..,sd=..,cd=..,rs=..,rd=..[,flit=B]} or a cost model spec
     * @param nodeModel    {@code one-port} or {@code all-port}; null means one-port
     */
    public static WormholeNetwork network(String topologySpec, String params, String nodeModel) {
        return network(Topology.parse(topologySpec), params,
                nodeModel == null ? NodeModel.ONE_PORT : NodeModel.parse(nodeModel));
    }

    /** As above, on a parsed topology. */
    public static WormholeNetwork network(Topology topology, String params, NodeModel nodeModel) {
        if (isFlitParams(params)) {
            return WormholeNetwork.flit(topology, WormholeParams.parse(params), nodeModel);
        }
        return WormholeNetwork.model(topology, model(params), nodeModel);
    }

    /** Flit-level network. */
    public static WormholeNetwork network(Topology topology, WormholeParams params, NodeModel nodeModel) {
        return WormholeNetwork.flit(topology, params, nodeModel);
    }

    /** Cost-model timing with routed contention detection. */
    public static WormholeNetwork network(Topology topology, CostModel model, NodeModel nodeModel) {
        return WormholeNetwork.model(topology, model, nodeModel);
    }

    /**
     * The (t_hold, t_end) model the model-driven builders (OPT-tree, OPT-mesh) should use for
     * {@code params}: a cost model spec as parsed, or, for wormhole parameters, the paper's
     * nominal model ({@link WormholeParams#nominalModel}(1): distance ignored).
     */
    public static CostModel builderModel(String params) {
        return isFlitParams(params) ? WormholeParams.parse(params).nominalModel(1) : model(params);
    }
}
