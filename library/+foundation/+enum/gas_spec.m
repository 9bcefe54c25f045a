classdef gas_spec < int32
% The property model of a gas network (foundation.gas.gas, gas_spec):
% perfect_gas, constant specific heats and compressibility factor;
% semiperfect_gas, properties that vary with temperature only (tables);
% real_gas, properties that vary with temperature and pressure.
    enumeration
        perfect_gas(1)
        semiperfect_gas(2)
        real_gas(3)
    end
end
