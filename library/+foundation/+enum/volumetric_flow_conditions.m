classdef volumetric_flow_conditions < int32
% The conditions at which a volumetric flow rate of a gas is given:
% actual, at the pressure and temperature of the flow; standard, at
% reference (standard) conditions, so that it measures a mass flow rate.
    enumeration
        actual(1)
        standard(2)
    end
end
