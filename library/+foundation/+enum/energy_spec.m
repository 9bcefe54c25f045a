classdef energy_spec < int32
% How the thermodynamic state of a two-phase fluid boundary (a reservoir)
% is given besides its pressure: by its temperature, its vapor quality
% (vapor mass fraction), its specific enthalpy, its specific internal
% energy, or its vapor void fraction (vapor volume fraction).
    enumeration
        temperature(1)
        quality(2)
        enthalpy(3)
        internal_energy(4)
        void_fraction(5)
    end
end
