classdef trace_gas_model < int32
% How a moist air network treats its trace gas
% (foundation.moist_air.moist_air, trace_gas_model): none, no trace gas;
% track_fraction, its mass fraction is carried but it does not change the
% mixture's properties; track_properties, its properties enter those of
% the mixture.
    enumeration
        none(1)
        track_fraction(2)
        track_properties(3)
    end
end
