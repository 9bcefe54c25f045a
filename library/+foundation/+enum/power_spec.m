classdef power_spec < int32
% Whether a flow rate source in a fluid network does work on the fluid
% (the Power added option of the fluid flow rate sources): none, the
% source adds no work (the total enthalpy is the same on both sides);
% isentropic, the source does the isentropic work that raises the
% fluid's pressure without changing its entropy.
    enumeration
        none(0)
        isentropic(1)
    end
end
