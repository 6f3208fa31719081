package io.mpirunj.fabric.wormhole;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.topology.Topology;

/**
 * The one factory the command line uses to build a fabric network:
 * <pre>
 *   --fabric mesh:16x16 --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3   flit level, contention delays
 *   --fabric mesh:6x6   --fabric-params hold=20,end=55                   cost-model timing, contention reported
 * </pre>
 * Parameters that contain {@code ss=} are {@link WormholeParams}; anything else is a
 * {@link ModelSpec} cost model. Bad input fails with a one-line {@link IllegalArgumentException}.
 */
public final class Fabric {

    private Fabric() {
    }

    /** True when {@code params} is a wormhole spec ({@code ss=...}) rather than a cost model spec. */
    public static boolean isFlitParams(String params) {
        return params != null && params.replace(" ", "").matches("(?i)(.*,)?ss=.*");
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
        return WormholeNetwork.model(topology, ModelSpec.parse(params), nodeModel);
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
        return isFlitParams(params) ? WormholeParams.parse(params).nominalModel(1) : ModelSpec.parse(params);
    }
}
